package dev.remora.domain.walk;

import dev.remora.ports.ThreadCpuClocks;

/** What one thread's CPU clock showed over its recent walks, for {@link CpuCheck}. */
final class CpuHistory {

    /** The thread's CPU clock and the wall clock when its last (or current) walk began. */
    long cpuNanos = ThreadCpuClocks.UNAVAILABLE;
    long wallNanos;
    /**
     * Ticks of CPU time the thread has used that no sample has stood for yet: each tick adds the
     * share of time since the last one that it had a CPU, each sample kept takes one away.
     */
    double owedTicks = CpuCheck.FIRST_OWED;
}
