package dev.remora.app.dump;

import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import dev.remora.domain.InspectionException;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dumps of a process whose threads start and exit all the time: a thread that vanishes or is half
 * made while it is read must be read again or left out, never end the dump nor give a wrong thread
 * list. Every dump must show the parked main thread and the parked worker, whole.
 */
@Tag("targets")
class ThreadChurnDumpTest {

    private static final int DUMPS = 5000;

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void everyDumpShowsTheThreadsThatStay(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-threadchurn-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/thread_churn.py"), List.of()))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try (VmReadvMemory memory = VmReadvMemory.open((int) target.pid())) {
                assertThat(new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8))
                        .readLine()).isEqualTo("READY");
                PythonProcess process = PythonProcess.attach(ProcfsProcessImage.of((int) target.pid()), memory);
                List<String> failures = new ArrayList<>();
                int threadsSeen = 0;
                int notStarted = 0;
                for (int i = 0; i < DUMPS; i++) {
                    ProcessStacks stacks;
                    try {
                        stacks = process.snapshot(SnapshotOptions.threads(true));
                    } catch (InspectionException e) {
                        failures.add("dump %d failed: %s".formatted(i, e.getMessage()));
                        continue;
                    }
                    List<ThreadStack> threads = stacks.interpreters().getFirst().threads();
                    threadsSeen = Math.max(threadsSeen, threads.size());
                    notStarted += stacks.interpreters().getFirst().notStarted();
                    check(i, threads, target.pid(), failures);
                }
                assertThat(failures).as("of %d dumps", DUMPS).isEmpty();
                assertThat(threadsSeen).as("short-lived threads were seen too").isGreaterThan(4);
                assertThat(notStarted).as("thread states not started yet, left out and counted").isPositive();
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static void check(int dump, List<ThreadStack> threads, long pid, List<String> failures) {
        ThreadStack main = null, parked = null;
        for (ThreadStack thread : threads) {
            if (thread.threadId() == 0) {
                failures.add("dump %d lists a thread with id 0".formatted(dump));
            }
            if (thread.threadId() == pid) {
                main = thread;
            }
            if (thread.frames().stream().map(FrameInfo::function).anyMatch("parked_worker"::equals)) {
                parked = thread;
            }
        }
        if (main == null || main.problem().isPresent()
                || main.frames().stream().map(FrameInfo::function).noneMatch("park_main"::equals)) {
            failures.add("dump %d: main thread %s".formatted(dump, main));
        }
        if (parked == null || parked.problem().isPresent()) {
            failures.add("dump %d: parked worker %s".formatted(dump, parked));
        }
    }
}
