package dev.remora.adapters.vmreadv;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The calling thread's policy, as the kernel reports it in /proc/thread-self/stat, on a thread of its
 * own so that the test runner's threads keep theirs.
 */
class ThreadSchedulingTest {

    private static final int SCHED_OTHER = 0;
    private static final int SCHED_FIFO = 1;

    /** Field 41 of stat, counted after the command name, which may hold spaces. */
    private static int policyOfThisThread() throws Exception {
        String stat = Files.readString(Path.of("/proc/thread-self/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return Integer.parseInt(fields[41 - 3]);
    }

    private static boolean root() throws Exception {
        return Files.readAllLines(Path.of("/proc/self/status")).stream().anyMatch(line -> line.matches("Uid:\\s+0\\s.*"));
    }

    @Test
    void aThreadAllowedRealTimeGetsTheFifoPolicyAndGivesItBack() throws Exception {
        assumeTrue(root(), "real-time priority needs root or CAP_SYS_NICE");
        AtomicReference<String> seen = new AtomicReference<>();
        Thread thread = Thread.ofPlatform().start(() -> {
            try {
                int before = policyOfThisThread();
                ThreadScheduling.Outcome raised = ThreadScheduling.realtime();
                int during = policyOfThisThread();
                ThreadScheduling.Outcome lowered = ThreadScheduling.normal();
                seen.set(before + " " + raised + " " + during + " " + lowered + " " + policyOfThisThread());
            } catch (Exception e) {
                seen.set(e.toString());
            }
        });
        thread.join();
        assertThat(seen.get()).isEqualTo(SCHED_OTHER + " APPLIED " + SCHED_FIFO + " APPLIED " + SCHED_OTHER);
    }

    @Test
    void anotherThreadKeepsItsPolicy() throws Exception {
        assumeTrue(root(), "real-time priority needs root or CAP_SYS_NICE");
        int mine = policyOfThisThread();
        Thread thread = Thread.ofPlatform().start(ThreadScheduling::realtime);
        thread.join();
        assertThat(policyOfThisThread()).isEqualTo(mine);
    }
}
