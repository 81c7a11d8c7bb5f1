package dev.remora.app.asyncio;

import dev.remora.adapters.coredump.CoreDump;
import dev.remora.app.testing.CoreFiles;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.walk.PythonProcess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** A core file of an asyncio process holds the same task graph as the process it was taken from. */
@Tag("targets")
class AsyncCoreTest {

    static List<TargetInterpreter> interpreters() {
        return AsyncGraphTest.interpreters();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    @Timeout(180)
    void aCoreHoldsTheLiveGraph(TargetInterpreter python) throws Exception {
        try (AsyncTarget target = AsyncTarget.start(python, "targets/asyncio_graph.py");
             ScratchDir dir = ScratchDir.create(python, "remora-async-core-")) {
            AsyncSnapshot live = AsyncGraphTest.snapshot(target, AsyncMode.ALL);
            Path core = CoreFiles.gcore(target.pid(), dir.host());
            try (CoreDump dump = CoreDump.open(core, Optional.of(python.root()))) {
                AsyncSnapshot fromCore = PythonProcess.attach(dump.image(), dump.memory()).asyncSnapshot(AsyncMode.ALL);
                assertThat(fromCore).isEqualTo(live);
            }
        }
    }
}
