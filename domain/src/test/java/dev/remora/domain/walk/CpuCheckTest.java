package dev.remora.domain.walk;

import dev.remora.ports.CpuState;
import dev.remora.ports.ThreadCpuClocks;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The CPU check on a scripted thread whose CPU clock, wall clock and run state move only as a test
 * says: between walks (a tick of 1 ms) and during one (50 µs), the thread runs for as long as it is
 * told, so what each walk decides can be checked against the CPU time it really used.
 */
class CpuCheckTest {

    private static final long TID = 42;
    private static final long TICK = 1_000_000;
    private static final long WALK = 50_000;

    /** One thread's clocks as the script moves them. */
    private static final class ScriptedThread implements ThreadCpuClocks {
        long cpu;
        long wall = 5_000_000;
        CpuState runState = CpuState.RUNNING;
        boolean exited;

        @Override
        public long cpuNanos(long nativeThreadId) {
            assertThat(nativeThreadId).isEqualTo(TID);
            return exited ? UNAVAILABLE : cpu;
        }

        @Override
        public void close() {}

        void pass(long wallNanos, long ranNanos) {
            wall += wallNanos;
            cpu += ranNanos;
        }
    }

    private final ScriptedThread thread = new ScriptedThread();
    private final CpuCheck check = new CpuCheck(() -> thread.wall);
    private final CpuHistory history = new CpuHistory();

    CpuCheckTest() {
        check.use(thread, TICK);
    }

    /** A tick: the thread runs {@code ranBefore} of the millisecond before the walk and {@code ranDuring} of the walk. */
    private int tick(long ranBefore, long ranDuring) {
        thread.pass(TICK - WALK, ranBefore);
        CpuCheck.Verdict start = check.start(TID, history, tid -> thread.runState);
        if (start == CpuCheck.Verdict.OFF_CPU) {
            thread.pass(WALK, ranDuring);
            return 0;
        }
        thread.pass(WALK, ranDuring);
        if (start == CpuCheck.Verdict.CREDITED) {
            return 1;
        }
        return check.settle(TID, history, tid -> thread.runState).cpuSamples();
    }

    @Test
    void aThreadWithoutAClockIsLeftToTheRunState() {
        thread.exited = true;
        assertThat(check.start(TID, history, tid -> thread.runState)).isEqualTo(CpuCheck.Verdict.UNCLOCKED);
    }

    @Test
    void aThreadWhoseClockStoodStillSinceItsLastWalkIsOffACpu() {
        tick(TICK - WALK, WALK);
        tick(0, 0);
        thread.runState = CpuState.IDLE;
        thread.pass(TICK, 0);
        CpuCheck.Verdict start = check.start(TID, history, tid -> thread.runState);
        assertThat(start).isEqualTo(CpuCheck.Verdict.OFF_CPU);
        assertThat(start.state()).isEqualTo(CpuState.IDLE);
    }

    @Test
    void aThreadThatRanThroughItsWalkStandsForOneSample() {
        for (int i = 0; i < 100; i++) {
            assertThat(tick(TICK - WALK, WALK)).as("tick %d", i).isEqualTo(1);
        }
    }

    @Test
    void aThreadThatWaitedThroughItsWalkIsOffACpuThoughTheOsCallsItRunnable() {
        tick(TICK - WALK, WALK);
        thread.pass(TICK - WALK, TICK / 2);
        CpuCheck.Verdict start = check.start(TID, history, tid -> thread.runState);
        assertThat(start).isEqualTo(CpuCheck.Verdict.MAY_RUN);
        thread.pass(WALK, 0);
        CpuCheck.Settled settled = check.settle(TID, history, tid -> thread.runState);
        assertThat(settled.ran()).isFalse();
        assertThat(settled.onCpu()).isFalse();
        assertThat(settled.cpuSamples()).isZero();
    }

    @Test
    void whenWalksSeeAThreadRunLessOftenThanItDoesItsSamplesStillAddUpToItsCpuTime() {
        // 60% of every millisecond on a CPU, but seen running by one walk in four: the walk took its CPU.
        long ran = 0;
        int samples = 0;
        for (int i = 0; i < 4000; i++) {
            long before = TICK * 6 / 10 - (i % 4 == 0 ? WALK : 0);
            long during = i % 4 == 0 ? WALK : 0;
            samples += tick(before, during);
            ran += before + during;
        }
        assertThat(samples).isCloseTo((int) (ran / TICK), within(4));
    }

    @Test
    void aThreadThatJustWokeHasItsFirstRunningStackKept() {
        // Owed less than a tick as it wakes: dropping the stack would move its samples to what it runs next.
        tick(TICK - WALK, WALK);
        for (int i = 0; i < 5; i++) {
            assertThat(tick(0, 0)).as("asleep, tick %d", i).isZero();
        }
        assertThat(tick(TICK / 5, WALK)).as("the first walk after it woke").isEqualTo(1);
        assertThat(tick(TICK - WALK, WALK)).isEqualTo(1);
    }

    @Test
    void aSleepingThreadIsNeverCreditedTheTimeItIsOwed() {
        // Ran hard between walks and never during one, then sleeps: nothing may stand for its CPU time.
        for (int i = 0; i < 20; i++) {
            tick(TICK - WALK, 0);
        }
        thread.runState = CpuState.IDLE;
        for (int i = 0; i < 20; i++) {
            assertThat(tick(TICK / 2, 0)).as("tick %d", i).isZero();
        }
        thread.runState = CpuState.RUNNING;
        assertThat(tick(TICK / 2, 0)).as("a wait once it is runnable again").isEqualTo(1);
    }

    @Test
    void aThreadThatWaitsThroughSomeWalksHasOnlyStacksItWasSeenRunningStandForItsCpuTime() {
        // Where walks take nobody's CPU, a wait is the thread's own (a call that yields its CPU): the
        // tick is not credited to the stack it waits in, and the CPU time goes to stacks seen running.
        long ran = 0;
        int samples = 0;
        for (int i = 0; i < 1000; i++) {
            boolean waits = i % 10 == 5;
            int got = tick(TICK - WALK, waits ? 0 : WALK);
            if (waits) {
                assertThat(got).as("tick %d, waited through", i).isZero();
            }
            samples += got;
            ran += TICK - WALK + (waits ? 0 : WALK);
        }
        assertThat(samples).isCloseTo((int) (ran / TICK), within(2));
    }
}
