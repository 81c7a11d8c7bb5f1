package dev.remora.app.agent;

import dev.remora.domain.model.StackProblem;
import dev.remora.domain.profile.StackErrors;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * What the agent did since it started, for its health line: written to by the sampling loop and the
 * packer, read by whoever reports.
 */
final class AgentCounts {

    private final long startNanos = System.nanoTime();
    private final AtomicLong ticks = new AtomicLong();
    private final AtomicLong missed = new AtomicLong();
    private final AtomicLong exited = new AtomicLong();
    private final AtomicLong windows = new AtomicLong();
    private final AtomicLong samples = new AtomicLong();
    private final AtomicLongArray errors = new AtomicLongArray(StackProblem.Kind.values().length);

    void ticks(long n) {
        ticks.addAndGet(n);
    }

    void missed(long n) {
        missed.addAndGet(n);
    }

    void processExited() {
        exited.incrementAndGet();
    }

    void packed(ProfileWindow window) {
        windows.incrementAndGet();
        samples.addAndGet(window.samples());
        for (StackProblem.Kind kind : StackProblem.Kind.values()) {
            errors.addAndGet(kind.ordinal(), window.errors().count(kind));
        }
    }

    /** One line: processes, ticks, samples, errors by reason, each sink's uploads and queue, the agent's own CPU and memory. */
    String line(IntSupplier processes, Supplier<List<SinkCounts>> sinks) {
        long[] byKind = new long[errors.length()];
        for (int i = 0; i < byKind.length; i++) {
            byKind[i] = errors.get(i);
        }
        StackErrors stackErrors = new StackErrors(byKind);
        double seconds = (System.nanoTime() - startNanos) / 1e9;
        long cpuNanos = ownCpuNanos();
        Runtime runtime = Runtime.getRuntime();
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "%d processes, %d exited; %d ticks, %d missed; %d windows, %d samples, %d errors%s; cpu %.2f%% of a core"
                        + " (%.1f s in %.0f s), heap %d MiB",
                processes.getAsInt(), exited.get(), ticks.get(), missed.get(), windows.get(), samples.get(), stackErrors.total(),
                stackErrors.total() > 0 ? " (" + stackErrors.describe() + ")" : "",
                seconds > 0 ? 100.0 * cpuNanos / 1e9 / seconds : 0.0, cpuNanos / 1e9, seconds,
                (runtime.totalMemory() - runtime.freeMemory()) >> 20));
        for (SinkCounts sink : sinks.get()) {
            line.append(String.format(Locale.ROOT, "; %s: %d delivered, %d failed tries, %d refused, %d dropped, %d queued (%d KiB)",
                    sink.sink(), sink.delivered(), sink.failedTries(), sink.refused(), sink.dropped(), sink.queued(),
                    sink.queuedBytes() >> 10));
        }
        return line.toString();
    }

    private static long ownCpuNanos() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            return Math.max(0, os.getProcessCpuTime());
        }
        return 0;
    }
}
