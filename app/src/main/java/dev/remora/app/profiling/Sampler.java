package dev.remora.app.profiling;

import dev.remora.domain.InspectionException;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.SamplingStats;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Walks the target at a fixed rate until told to stop, the duration is over or the target exits.
 * Sample times are scheduled on a fixed grid from the start, so the rate does not drift; between
 * samples the thread sleeps rather than spinning. Grid points that pass while the sampler is held up
 * (a slow walk, or the machine busy with the target) are sampled as soon as it runs again, back to
 * back: skipping them would under-count whatever the target was doing while it had the CPU. Only
 * points more than {@link #CATCH_UP_NANOS} behind are given up, and counted as missed. Its priority
 * is asked for as it waits for a tick and as it catches up; see {@link SamplerPriority}.
 */
public final class Sampler {

    private static final long SECOND = 1_000_000_000L;
    /** How far behind the grid the sampler still catches up; older points are missed. */
    static final long CATCH_UP_NANOS = 50_000_000L;

    /** The time and the sleeps the sampler schedules by; tests give it one that only moves when told. */
    interface Clock {
        Clock SYSTEM = new Clock() {
            @Override
            public long nanoTime() {
                return System.nanoTime();
            }

            @Override
            public void parkNanos(long nanos) {
                LockSupport.parkNanos(nanos);
            }
        };

        long nanoTime();

        void parkNanos(long nanos);
    }

    /**
     * @param durationNanos how long to sample, or 0 for as long as the target lives
     */
    public record Settings(long intervalNanos, long durationNanos, long windowNanos) {}

    /** One sample's worth of walking, fed into the profile. */
    @FunctionalInterface
    public interface Source {
        void sampleInto(ProfileBuilder builder) throws InspectionException;
    }

    private final Source source;
    private final ProfileBuilder builder;
    private final Settings settings;
    private final SamplerListener listener;
    private final SamplerPriority priority;
    private final Clock clock;
    private SamplerPriority.Level level = SamplerPriority.Level.NORMAL;
    private boolean targetExited;

    public Sampler(Source source, ProfileBuilder builder, Settings settings, SamplerListener listener,
                   SamplerPriority priority) {
        this(source, builder, settings, listener, priority, Clock.SYSTEM);
    }

    Sampler(Source source, ProfileBuilder builder, Settings settings, SamplerListener listener, SamplerPriority priority,
            Clock clock) {
        this.source = source;
        this.builder = builder;
        this.settings = settings;
        this.listener = listener;
        this.priority = priority;
        this.clock = clock;
    }

    /** Whether sampling ended because the target went away. */
    public boolean targetExited() {
        return targetExited;
    }

    /**
     * Samples until {@code stop} says so; {@code targetAlive} is asked between samples so a launched
     * child that exits ends the run at once.
     */
    public SamplingStats run(BooleanSupplier stop, BooleanSupplier targetAlive) {
        try {
            return sample(stop, targetAlive);
        } finally {
            prioritise(SamplerPriority.Level.NORMAL); // what follows, writing the profile, needs no haste
        }
    }

    /** Where on the grid the loop is, and what it counted so far. */
    private static final class Grid {
        final long start;
        long next;
        long attempts;
        long missed;
        long lastCall;
        long lastTick;
        long lastWindow;
        int windowStart;

        Grid(long start) {
            this.start = start;
            this.next = start;
            this.lastTick = start;
            this.lastWindow = start;
        }
    }

    private SamplingStats sample(BooleanSupplier stop, BooleanSupplier targetAlive) {
        Grid grid = new Grid(clock.nanoTime());
        // Each turn is a call of its own: a loop that runs once a tick waits tens of seconds in the
        // interpreter before the JIT compiles it (by its back edges), while a method called once a tick
        // is compiled within a second or two.
        while (!stop.getAsBoolean() && turn(grid, targetAlive)) {
            // turn() did the work
        }
        long elapsed = clock.nanoTime() - grid.start;
        // Grid points that fell due while the last walk was held up (or the sampler was), never taken: a
        // run that ends then, because its target went or its time is up, must count them as well.
        long interval = settings.intervalNanos();
        long behind = grid.start + (settings.durationNanos() > 0 ? Math.min(elapsed, settings.durationNanos()) : elapsed)
                - grid.next;
        if (behind >= interval) {
            grid.missed += behind / interval;
        }
        int end = builder.profile().samples().size();
        if (end > grid.windowStart) {
            listener.window(builder.profile(), grid.windowStart, end);
        }
        builder.windowHandedOn();
        SamplingStats stats = new SamplingStats(grid.attempts, builder.profile().samples().total(), builder.errors(),
                grid.missed, elapsed);
        builder.finish(stats);
        return stats;
    }

    /** One turn of the loop: waits for the next grid point, or takes it; false when sampling is over. */
    private boolean turn(Grid grid, BooleanSupplier targetAlive) {
        long interval = settings.intervalNanos();
        long now = clock.nanoTime();
        if (settings.durationNanos() > 0 && now - grid.start >= settings.durationNanos()) {
            return false;
        }
        if (now < grid.next) {
            prioritise(SamplerPriority.Level.PROMPT);
            clock.parkNanos(grid.next - now);
            return true;
        }
        builder.beginSample(now - grid.start);
        grid.attempts++;
        try {
            source.sampleInto(builder);
        } catch (InspectionException.TargetGone gone) {
            grid.attempts--;
            targetExited = true;
            return false;
        } catch (InspectionException e) {
            builder.tickFailed();
            if (!targetAlive.getAsBoolean()) {
                targetExited = true;
                return false;
            }
        }
        long done = clock.nanoTime();
        grid.lastCall = done - now;
        grid.next += interval;
        if (done - grid.next > interval) {
            prioritise(SamplerPriority.Level.NORMAL);
        }
        long catchUp = Math.max(interval, CATCH_UP_NANOS);
        if (done - grid.next > catchUp) {
            long skipped = (done - grid.next - catchUp + interval - 1) / interval;
            grid.missed += skipped;
            grid.next += skipped * interval;
        }
        // Progress first: a window shown with it (the live view's header) then speaks of the same moment.
        if (done - grid.lastTick >= SECOND) {
            grid.lastTick = done;
            listener.tick(builder.profile(), new SamplerProgress(grid.attempts, builder.profile().samples().total(),
                    builder.errors(), grid.missed, done - grid.start, grid.lastCall));
            if (!targetAlive.getAsBoolean()) {
                targetExited = true;
                return false;
            }
        }
        if (done - grid.lastWindow >= settings.windowNanos()) {
            int end = builder.profile().samples().size();
            listener.window(builder.profile(), grid.windowStart, end);
            builder.windowHandedOn();
            grid.windowStart = builder.profile().samples().size();
            grid.lastWindow = done;
        }
        return true;
    }

    private void prioritise(SamplerPriority.Level wanted) {
        if (level != wanted) {
            level = wanted;
            priority.set(wanted);
        }
    }
}
