package dev.remora.app.profiling;

import dev.remora.domain.InspectionException;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.SamplingStats;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Walks the target at a fixed rate until told to stop, the duration is over or the target exits.
 * Sample times are scheduled on a fixed grid from the start, so the rate does not drift; when a walk
 * overruns, the grid points it covered are counted as missed instead of being caught up in a burst;
 * between samples the thread sleeps rather than spinning.
 */
public final class Sampler {

    private static final long SECOND = 1_000_000_000L;

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
    private boolean targetExited;

    public Sampler(Source source, ProfileBuilder builder, Settings settings, SamplerListener listener) {
        this.source = source;
        this.builder = builder;
        this.settings = settings;
        this.listener = listener;
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
        long interval = settings.intervalNanos();
        long start = System.nanoTime();
        long next = start;
        long attempts = 0, failures = 0, missed = 0, lastCall = 0;
        long lastTick = start, lastWindow = start;
        int windowStart = 0;
        while (!stop.getAsBoolean()) {
            long now = System.nanoTime();
            if (settings.durationNanos() > 0 && now - start >= settings.durationNanos()) {
                break;
            }
            if (now < next) {
                LockSupport.parkNanos(next - now);
                continue;
            }
            builder.beginSample(now - start);
            attempts++;
            try {
                source.sampleInto(builder);
            } catch (InspectionException.TargetGone gone) {
                attempts--;
                targetExited = true;
                break;
            } catch (InspectionException e) {
                failures++;
                if (!targetAlive.getAsBoolean()) {
                    targetExited = true;
                    break;
                }
            }
            long done = System.nanoTime();
            lastCall = done - now;
            next += interval;
            if (done - next > interval) {
                long skipped = (done - next) / interval;
                missed += skipped;
                next += skipped * interval;
            }
            if (done - lastWindow >= settings.windowNanos()) {
                int end = builder.profile().samples().size();
                listener.window(builder.profile(), windowStart, end);
                windowStart = end;
                lastWindow = done;
            }
            if (done - lastTick >= SECOND) {
                lastTick = done;
                listener.tick(builder.profile(), new SamplerProgress(attempts, failures, missed, done - start, lastCall));
                if (!targetAlive.getAsBoolean()) {
                    targetExited = true;
                    break;
                }
            }
        }
        long elapsed = System.nanoTime() - start;
        int end = builder.profile().samples().size();
        if (end > windowStart) {
            listener.window(builder.profile(), windowStart, end);
        }
        SamplingStats stats = new SamplingStats(attempts, failures, builder.incompleteStacks(), missed, elapsed);
        builder.finish(stats);
        return stats;
    }
}
