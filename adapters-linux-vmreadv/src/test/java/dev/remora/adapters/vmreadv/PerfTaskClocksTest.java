package dev.remora.adapters.vmreadv;

import dev.remora.ports.ThreadCpuClocks;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Each thread's CPU clock, on real processes: it moves with the wall clock while a process spins, and
 * stands still while one sleeps. Skipped where the kernel refuses perf events to a user who is not
 * root (perf_event_paranoid): Remora then falls back on the run state, and says so.
 */
class PerfTaskClocksTest {

    private static Process start(String script) throws IOException {
        Process process = new ProcessBuilder("/bin/sh", "-c", script).start();
        try {
            PerfTaskClocks.open((int) process.pid()).close();
        } catch (IOException e) {
            process.destroyForcibly();
            // An unprivileged unit run may be refused; as root (./run-tests, CI) a refusal means cpu mode
            // would fall back on the run state, and must fail here.
            assumeFalse(e.getMessage().contains("refused") && !root(), e.getMessage());
            throw e;
        }
        return process;
    }

    private static boolean root() throws IOException {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
                .anyMatch(line -> line.matches("Uid:\\s+0\\s.*"));
    }

    /** How far the process's clock moves over {@code millis} of wall time, in nanoseconds. */
    private static long movedOver(ThreadCpuClocks clocks, long tid, long millis) throws InterruptedException {
        long before = clocks.cpuNanos(tid);
        Thread.sleep(millis);
        long after = clocks.cpuNanos(tid);
        assertThat(before).isNotEqualTo(ThreadCpuClocks.UNAVAILABLE);
        return after - before;
    }

    @Test
    void aSpinningThreadsClockMovesWithTheWallClockAndASleepingOnesStandsStill() throws Exception {
        Process spinning = start("while :; do :; done");
        Process sleeping = start("exec sleep 30");
        try (PerfTaskClocks spinningClock = PerfTaskClocks.open((int) spinning.pid());
             PerfTaskClocks sleepingClock = PerfTaskClocks.open((int) sleeping.pid())) {
            Thread.sleep(50); // past the shell's start
            // On a busy machine the spinner shares a CPU: it must still have run a good part of the time.
            assertThat(movedOver(spinningClock, spinning.pid(), 200)).isBetween(40_000_000L, 260_000_000L);
            assertThat(movedOver(sleepingClock, sleeping.pid(), 200)).isZero();
        } finally {
            spinning.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            sleeping.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aThreadThatIsNotThereHasNoClock() throws Exception {
        Process sleeping = start("exec sleep 30");
        try (PerfTaskClocks clocks = PerfTaskClocks.open((int) sleeping.pid())) {
            assertThat(clocks.cpuNanos(0)).isEqualTo(ThreadCpuClocks.UNAVAILABLE);
            assertThat(clocks.cpuNanos(Integer.MAX_VALUE)).isEqualTo(ThreadCpuClocks.UNAVAILABLE);
        } finally {
            sleeping.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aProcessThatIsGoneIsSaidInOneLine() throws Exception {
        start("exec sleep 1").destroyForcibly(); // skips where perf events are refused
        Process gone = new ProcessBuilder("/bin/sh", "-c", "exit 0").start();
        gone.waitFor(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> PerfTaskClocks.open((int) gone.pid())).isInstanceOf(IOException.class)
                .hasMessageContaining("exited").hasMessageNotContaining("\n");
    }
}
