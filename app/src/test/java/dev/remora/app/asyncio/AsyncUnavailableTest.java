package dev.remora.app.asyncio;

import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import dev.remora.domain.InspectionException.AsyncioUnavailable;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.walk.PythonProcess;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Where there is no task graph to read, the reading fails with a reason instead of returning an
 * empty graph that would look complete.
 */
@Tag("targets")
class AsyncUnavailableTest {

    static List<TargetInterpreter> olderThan314() {
        return TargetInterpreters.all().stream().filter(t -> !t.isAtLeast(3, 14)).toList();
    }

    static List<TargetInterpreter> atLeast314() {
        return TargetInterpreters.all().stream().filter(t -> t.isAtLeast(3, 14)).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("olderThan314")
    void cpython313HasNoAsyncioLayout(TargetInterpreter python) throws Exception {
        // The target imports asyncio and runs tasks: what is missing is the layout, not the tasks.
        try (AsyncTarget target = AsyncTarget.start(python, "targets/asyncio_graph.py");
             VmReadvMemory memory = VmReadvMemory.open(target.pid())) {
            PythonProcess process = PythonProcess.attach(ProcfsProcessImage.of(target.pid()), memory);
            for (AsyncMode mode : AsyncMode.values()) {
                assertThatThrownBy(() -> process.asyncSnapshot(mode))
                        .isInstanceOfSatisfying(AsyncioUnavailable.class,
                                e -> assertThat(e.reason()).isEqualTo(AsyncioUnavailable.Reason.NEEDS_NEWER_PYTHON))
                        .hasMessage("asyncio introspection needs CPython 3.14 or newer (process %d runs %s)",
                                target.pid(), process.version());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("atLeast314")
    void aProcessThatNeverImportedAsyncioSaysSo(TargetInterpreter python) throws Exception {
        try (AsyncTarget target = AsyncTarget.start(python, "targets/asyncio_none.py");
             VmReadvMemory memory = VmReadvMemory.open(target.pid())) {
            PythonProcess process = PythonProcess.attach(ProcfsProcessImage.of(target.pid()), memory);
            for (AsyncMode mode : AsyncMode.values()) {
                assertThatThrownBy(() -> process.asyncSnapshot(mode))
                        .isInstanceOfSatisfying(AsyncioUnavailable.class,
                                e -> assertThat(e.reason()).isEqualTo(AsyncioUnavailable.Reason.NOT_IMPORTED))
                        // 3.14 maps the section only with the _asyncio module; Debian's 3.15 has it built in.
                        .hasMessageMatching("process %d has not imported asyncio "
                                .formatted(target.pid()) + "\\((no AsyncioDebug section mapped|no _asyncio in sys.modules)\\)");
            }
        }
    }
}
