package dev.remora.app.agent;

import dev.remora.app.profiling.SamplerPriority;
import dev.remora.domain.InspectionException;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The one sampling loop of the agent: at each point of a fixed grid it walks every watched process,
 * and at the end of each upload window hands each process's profile on. Processes found meanwhile
 * join at the next tick and start a window of their own; one that exits hands on the window it had.
 * Points passed while the loop was held up are taken at once, up to 50 ms behind; older ones are
 * missed and counted in the windows they fell in. The loop waits for its ticks at the priority it is
 * given and catches up at normal priority, as a profile's sampler does (see {@link SamplerPriority}).
 */
final class AgentLoop {

    private static final long CATCH_UP_NANOS = 50_000_000L;
    /** How often a loop with nothing to sample looks for arrivals. */
    private static final long IDLE_NANOS = 20_000_000L;

    private final long intervalNanos;
    private final long windowNanos;
    private final ProcessScanner scanner;
    private final WindowPacker packer;
    private final AgentCounts counts;
    private final SamplerPriority priority;
    private final List<WatchedProcess> processes = new ArrayList<>();
    private SamplerPriority.Level level = SamplerPriority.Level.NORMAL;

    AgentLoop(long intervalNanos, long windowNanos, ProcessScanner scanner, WindowPacker packer, AgentCounts counts,
              SamplerPriority priority) {
        this.priority = priority;
        this.intervalNanos = intervalNanos;
        this.windowNanos = windowNanos;
        this.scanner = scanner;
        this.packer = packer;
        this.counts = counts;
    }

    /** Samples until {@code stop} says so; then every process's window so far is handed on. */
    void run(BooleanSupplier stop) {
        long next = System.nanoTime();
        long windowEnd = next + windowNanos;
        long missed = 0;
        try {
            while (!stop.getAsBoolean()) {
                long now = System.nanoTime();
                if (processes.isEmpty() && scanner.arrivals().isEmpty()) {
                    // Nothing to sample: no wake-ups at the tick's rate, and the grid starts afresh with the first process.
                    prioritise(SamplerPriority.Level.NORMAL);
                    LockSupport.parkNanos(IDLE_NANOS);
                    next = System.nanoTime();
                    windowEnd = next + windowNanos;
                    missed = 0;
                    continue;
                }
                if (now < next) {
                    prioritise(SamplerPriority.Level.PROMPT);
                    LockSupport.parkNanos(next - now);
                    continue;
                }
                adoptArrivals(now);
                tick(now, missed);
                long done = System.nanoTime();
                next += intervalNanos;
                if (done - next > intervalNanos) {
                    prioritise(SamplerPriority.Level.NORMAL);
                }
                if (done - next > CATCH_UP_NANOS) {
                    long skipped = (done - next - CATCH_UP_NANOS + intervalNanos - 1) / intervalNanos;
                    missed += skipped;
                    counts.missed(skipped);
                    next += skipped * intervalNanos;
                }
                if (done >= windowEnd) {
                    long wall = System.currentTimeMillis(); // one end for each window, the next one's start
                    for (WatchedProcess process : processes) {
                        packer.add(process.endWindow(done, wall, missed));
                        process.beginWindow(done, wall);
                    }
                    missed = 0;
                    windowEnd += windowNanos * Math.max(1, (done - windowEnd) / windowNanos + 1);
                }
            }
        } finally {
            prioritise(SamplerPriority.Level.NORMAL);
            long now = System.nanoTime();
            for (WatchedProcess process : processes) {
                packer.add(process.endWindow(now, System.currentTimeMillis(), missed));
                process.close();
            }
            processes.clear();
        }
    }

    /** One point of the grid: every process walked once. */
    private void tick(long now, long missed) {
        for (int i = 0; i < processes.size(); i++) {
            WatchedProcess process = processes.get(i);
            try {
                process.sample(now);
            } catch (InspectionException.TargetGone gone) {
                packer.add(process.endWindow(System.nanoTime(), System.currentTimeMillis(), missed));
                process.close();
                scanner.gone(process.key());
                counts.processExited();
                processes.remove(i--);
            }
        }
        counts.ticks(1);
    }

    private void prioritise(SamplerPriority.Level wanted) {
        if (level != wanted) {
            level = wanted;
            priority.set(wanted);
        }
    }

    private void adoptArrivals(long now) {
        WatchedProcess arrived;
        while ((arrived = scanner.arrivals().poll()) != null) {
            arrived.beginWindow(now, System.currentTimeMillis());
            processes.add(arrived);
        }
    }
}
