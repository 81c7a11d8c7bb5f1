package dev.remora.app.asyncio;

import dev.remora.adapters.coredump.CoreDump;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.walk.PythonProcess;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A core file of an asyncio process holds the same task graph as the process it was taken from. */
class AsyncCoreTest {

    private static final Path GCORE = Path.of("/usr/bin/gcore");
    /** The kernel's default: file-backed text and read-only data come from the mapped files. */
    private static final String DEFAULT_COREDUMP_FILTER = "0x33";

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
            Path core = gcore(target.pid(), dir.host());
            try (CoreDump dump = CoreDump.open(core, Optional.of(python.root()))) {
                AsyncSnapshot fromCore = PythonProcess.attach(dump.image(), dump.memory()).asyncSnapshot(AsyncMode.ALL);
                assertThat(fromCore).isEqualTo(live);
            }
        }
    }

    private static Path gcore(int pid, Path dir) throws IOException, InterruptedException {
        if (!Files.isExecutable(GCORE)) {
            throw new IllegalStateException(GCORE + " is missing: run scripts/provision-gdb.sh (installs gdb) as root");
        }
        Files.writeString(Path.of("/proc", Integer.toString(pid), "coredump_filter"), DEFAULT_COREDUMP_FILTER);
        Process p = new ProcessBuilder(GCORE.toString(), "-o", dir.resolve("gcore").toString(), Integer.toString(pid))
                .redirectErrorStream(true).redirectOutput(dir.resolve("gcore.log").toFile())
                .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("gcore failed:\n" + Files.readString(dir.resolve("gcore.log")));
        }
        return dir.resolve("gcore." + pid);
    }
}
