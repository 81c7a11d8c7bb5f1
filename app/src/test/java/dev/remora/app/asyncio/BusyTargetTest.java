package dev.remora.app.asyncio;

import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.domain.InspectionException;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.asyncio.AsyncTask;
import dev.remora.domain.walk.PythonProcess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A loop that creates and finishes tasks all the time changes under every reading. Readings are
 * retried until one holds together: nearly all of them must succeed (CPython's own reader fails a
 * good share of its calls on this target), and what they return must be real tasks.
 */
@Tag("targets")
class BusyTargetTest {

    private static final int READINGS = 100;

    static List<TargetInterpreter> interpreters() {
        return AsyncGraphTest.interpreters();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    @Timeout(120)
    void readsAChurningLoopConsistently(TargetInterpreter python) throws Exception {
        try (AsyncTarget target = AsyncTarget.start(python, "targets/asyncio_busy.py");
             VmReadvMemory memory = VmReadvMemory.open(target.pid())) {
            PythonProcess process = PythonProcess.attach(ProcfsProcessImage.of(target.pid()), memory);
            List<String> failures = new ArrayList<>();
            for (int i = 0; i < READINGS; i++) {
                try {
                    AsyncSnapshot s = process.asyncSnapshot(i % 2 == 0 ? AsyncMode.ALL : AsyncMode.RUNNING);
                    List<String> names = s.threads().stream().flatMap(t -> t.tasks().stream()).map(AsyncTask::name).toList();
                    assertThat(names).allMatch(n -> n.matches("(churn|spawner)-\\d+|Task-\\d+"));
                    if (s.mode() == AsyncMode.ALL) {
                        // The spawners live as long as the target: a reading of every task always has them.
                        assertThat(names).contains("spawner-0", "spawner-1", "spawner-2", "spawner-3");
                    }
                } catch (InspectionException.CorruptTarget e) {
                    failures.add(e.getMessage());
                }
            }
            // Seen when written: a few in a thousand (CPython 3.14.10's own reader fails 7 in 100 calls,
            // 3.15.2's 40 in 100). Seen since on this project's machines: up to 10 in 100, in 2 runs of 6.
            assertThat(failures).as("readings that never held together").hasSizeLessThanOrEqualTo(READINGS * 3 / 20);
        }
    }
}
