package dev.remora.app.dump;

import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code <native>} and {@code <GC>} frames appear where CPython 3.15's profiler puts them. */
@Tag("targets")
class PseudoFramesTest {

    private static final String SLOW_DEL = "Slow.__del__";

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void nativeAndGcFramesSitBetweenThePythonFrames(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-gc-")) {
            String script = dir.copyResource("targets/gc_native.py");
            Process target = new ProcessBuilder(python.scriptCommand(script, List.of())).redirectErrorStream(true).start();
            try {
                assertThat(new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8)).readLine())
                        .isEqualTo("READY");
                if (!python.isAtLeast(3, 11)) {
                    // 3.10 marks neither where C code calls back into Python nor collections; nor qualifies names.
                    assertThat(functionsWhileCollecting(target.pid(), "__del__", "--native"))
                            .containsExactly("__del__", "collect_it", "<lambda>", "outer", "<module>");
                    return;
                }
                List<String> functions = functionsWhileCollecting(target.pid(), SLOW_DEL, "--native");
                // Only 3.15 exports the frame that started a collection.
                String collector = python.isAtLeast(3, 15) ? "<GC>" : "<native>";
                assertThat(functions).startsWith(SLOW_DEL, collector, "collect_it", "outer.<locals>.<lambda>", "<native>",
                        "outer", "<module>");
                assertThat(functionsWhileCollecting(target.pid(), SLOW_DEL, "--no-gc"))
                        .containsExactly(SLOW_DEL, "collect_it", "outer.<locals>.<lambda>", "outer", "<module>");
                if (python.isAtLeast(3, 15)) {
                    assertThat(functions).isEqualTo(cpythonFunctions(python, target.pid()));
                }
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** The target spends almost all its time in __del__ during a collection; wait for a dump that shows it. */
    private static List<String> functionsWhileCollecting(long pid, String top, String option) throws InterruptedException {
        List<String> last = List.of();
        for (int attempt = 0; attempt < 100; attempt++) {
            RemoraCli run = RemoraCli.run("dump", "--format", "json", option, pid);
            assertThat(run.exitCode()).as(run.err()).isZero();
            last = DumpJson.frames(DumpJson.parse(run.out()).threads().get(pid)).stream().map(f -> f.function()).toList();
            if (!last.isEmpty() && last.getFirst().equals(top)) {
                return last;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("never caught the target collecting; last stack " + last);
    }

    private static List<String> cpythonFunctions(TargetInterpreter python, long pid) throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            Process p = new ProcessBuilder(python.command("-c", """
                    import _remote_debugging as rd
                    u = rd.RemoteUnwinder(%d, native=True, gc=True)
                    for i in u.get_stack_trace():
                        for t in i.threads:
                            print("\\t".join(f.funcname for f in t.frame_info))
                    """.formatted(pid))).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            assertThat(p.waitFor()).as(out).isZero();
            List<String> functions = List.of(out.split("\t"));
            if (functions.getFirst().equals(SLOW_DEL)) {
                return functions;
            }
        }
        throw new AssertionError("CPython's unwinder never caught the target collecting");
    }
}
