package dev.remora.domain.walk;

import dev.remora.ports.CpuState;
import dev.remora.ports.ThreadCpuClocks;

import java.util.function.LongFunction;
import java.util.function.LongSupplier;

/**
 * Whether a thread had a CPU while its stack was read, and how many samples of CPU time its stack
 * stands for, from its CPU clock. The OS's run state says "running" of a thread that waits for a CPU
 * too, and such a thread would be credited CPU time it did not get; its clock stands still.
 *
 * <p>Before the walk, a clock that has not moved since the thread's last walk means off a CPU. After
 * it, the thread ran through the walk if its clock moved at least half as far as the wall clock.
 *
 * <p>But a walk takes a CPU itself: where more threads are runnable than there are CPUs, the thread
 * walked has one less often while it is walked than between walks, and walks alone would under-count
 * it. So the CPU time each thread used is kept as ticks (the time between walks) owed to it. A stack
 * it ran through stands for two samples while it is owed more than one; only when even that falls
 * behind is a tick it spent waiting for a CPU (runnable, by the OS) credited to the stack it waits
 * in. The samples add up to the CPU time, and are stacks the thread was seen running wherever they
 * can be.
 */
final class CpuCheck {

    /** What a thread is owed before its first walk. */
    static final double FIRST_OWED = 0.5;
    /** Owed from this on, a tick the thread waits for a CPU through is credited to it. */
    static final double WAITING_CREDITED = 2.5;
    /** Ticks owed at most: CPU time that no walk could see is not made up without end. */
    static final double MAX_OWED = 16;
    /** Ticks owed at least: stacks seen running beyond the time used are not paid back without end. */
    static final double MIN_OWED = -1;

    /** What a thread's clock says as its walk begins. */
    enum Verdict {
        /** No clock: the OS's run state is all there is. */
        UNCLOCKED,
        /** It has not run since its last walk. */
        OFF_CPU,
        /** It has not run since its last walk, but waits for a CPU and is owed the tick. */
        CREDITED,
        /** It ran since its last walk: the walk's end settles whether it still does. */
        MAY_RUN;

        /** Its state as far as known before the walk; {@link #UNCLOCKED} asks the OS. */
        CpuState state() {
            return this == OFF_CPU ? CpuState.IDLE : CpuState.RUNNING;
        }
    }

    /**
     * What the end of a walk says of the thread.
     *
     * @param ran whether it had a CPU through the walk
     * @param cpuSamples how many samples of CPU time its stack stands for: 0, 1 or 2
     */
    record Settled(boolean ran, int cpuSamples) {
        /** Whether the tick counts the thread on a CPU: it ran, or a wait it is owed is credited to it. */
        boolean onCpu() {
            return ran || cpuSamples > 0;
        }
    }

    private static final Settled IDLE = new Settled(false, 0);
    private static final Settled WAITING_OWED = new Settled(false, 1);
    private static final Settled RAN = new Settled(true, 1);
    private static final Settled RAN_OWED_MORE = new Settled(true, 2);

    private final LongSupplier wallNanos;
    private ThreadCpuClocks clocks = ThreadCpuClocks.NONE;
    /** The time between walks that each sample stands for. */
    private long tickNanos = 1;

    CpuCheck(LongSupplier wallNanos) {
        this.wallNanos = wallNanos;
    }

    void use(ThreadCpuClocks clocks, long tickNanos) {
        if (tickNanos <= 0) {
            throw new IllegalArgumentException("a tick of " + tickNanos + " ns");
        }
        this.clocks = clocks;
        this.tickNanos = tickNanos;
    }

    /** @param runStates each thread's run state by the OS (running, or waiting for a CPU) */
    Verdict start(long nativeId, CpuHistory history, LongFunction<CpuState> runStates) {
        long cpu = clocks.cpuNanos(nativeId);
        if (cpu == ThreadCpuClocks.UNAVAILABLE) {
            return Verdict.UNCLOCKED;
        }
        long wall = wallNanos.getAsLong();
        boolean known = history.cpuNanos != ThreadCpuClocks.UNAVAILABLE;
        if (known) {
            // In ticks, not as a share of the time since the last walk: walks late and walks caught up
            // back to back each stand for one tick.
            double ticks = Math.max(0, cpu - history.cpuNanos) / (double) tickNanos;
            history.owedTicks = Math.min(MAX_OWED, history.owedTicks + ticks);
        }
        boolean moved = !known || cpu != history.cpuNanos;
        history.cpuNanos = cpu;
        history.wallNanos = wall;
        if (moved) {
            return Verdict.MAY_RUN;
        }
        return creditWaiting(nativeId, history, runStates) ? Verdict.CREDITED : Verdict.OFF_CPU;
    }

    /** What the thread's clock says once its walk, begun with {@link #start}, is over. */
    Settled settle(long nativeId, CpuHistory history, LongFunction<CpuState> runStates) {
        long cpu = clocks.cpuNanos(nativeId);
        long wall = wallNanos.getAsLong();
        // The history holds the clocks as the walk began.
        if (cpu != ThreadCpuClocks.UNAVAILABLE && 2 * (cpu - history.cpuNanos) < wall - history.wallNanos) {
            return creditWaiting(nativeId, history, runStates) ? WAITING_OWED : IDLE;
        }
        // Ran through the walk (or exited meanwhile, running as the walk began). A stack seen running is
        // always kept: a thread that just woke is owed less than a tick, and dropping its first running
        // stack would move its samples to whatever it runs next.
        if (history.owedTicks >= 1.5) {
            history.owedTicks -= 2;
            return RAN_OWED_MORE;
        }
        history.owedTicks = Math.max(MIN_OWED, history.owedTicks - 1);
        return RAN;
    }

    /** Whether a tick the thread did not run through is credited to it, and if so takes it off what it is owed. */
    private boolean creditWaiting(long nativeId, CpuHistory history, LongFunction<CpuState> runStates) {
        if (history.owedTicks < WAITING_CREDITED || runStates.apply(nativeId) != CpuState.RUNNING) {
            return false;
        }
        history.owedTicks -= 1;
        return true;
    }
}
