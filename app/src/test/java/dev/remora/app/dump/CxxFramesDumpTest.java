package dev.remora.app.dump;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.testing.DetachedTarget;
import dev.remora.app.testing.GdbStacks;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code dump --native-frames} names C frames of C++ code as gdb names them: a thread parked in a
 * library whose functions carry g++'s names ({@code targets/cxx_parked.c}, built here with gcc) shows
 * {@code remora_test::Parker<int>::wait(int) const} under {@code remora_test::(anonymous
 * namespace)::enter()}, in the order gdb's backtrace gives, under the Python frame that called in.
 */
@Tag("targets")
class CxxFramesDumpTest {

    private static final List<String> CXX_FRAMES = List.of("remora_test::Parker<int>::wait(int) const",
            "remora_test::(anonymous namespace)::enter()", "park_in_cxx");

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void cFramesOfCxxCodeAreNamedAsGdbNamesThem(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-cxx-")) {
            dir.copyResource("targets/cxx_parked.c");
            build(dir);
            try (DetachedTarget target = DetachedTarget.start(python, dir, "cxx_parked.py",
                    List.of(dir.inRoot("libcxx_parked.so")), "READY")) {
                List<String> ours = settledNames(target.pid());

                assertThat(ours).as("C frames, innermost first").containsSubsequence(CXX_FRAMES);

                long pid = target.pid();
                List<String> gdb = GdbStacks.liveNames(pid, python).get(pid);
                assertThat(gdb).as("gdb's backtrace of the main thread").containsSubsequence(CXX_FRAMES);
                assertThat(ours.subList(0, ours.indexOf("park_in_cxx") + 1))
                        .as("the frames down to the entry point, as gdb names them")
                        .isEqualTo(gdb.subList(0, gdb.indexOf("park_in_cxx") + 1));
            }
        }
    }

    /** The main thread's frames once it has reached the library: Python frames as {@code py NAME}. */
    private static List<String> settledNames(long pid) throws InterruptedException {
        List<String> names = List.of();
        for (int attempt = 0; attempt < 20; attempt++) {
            RemoraCli run = RemoraCli.run("dump", "--native-frames", "--format", "json", pid);
            assertThat(run.exitCode()).as(run.err()).isZero();
            JsonNode main = DumpJson.parse(run.out()).threads().get(pid);
            names = new ArrayList<>();
            for (JsonNode frame : main.get("frames")) {
                names.add(frame.get("kind").asText().equals("native") ? frame.path("symbol").asText("??")
                        : "py " + frame.get("function").asText());
            }
            if (names.contains("park_in_cxx")) {
                assertThat(names.indexOf("py call_into_cxx")).as("the Python caller under the C frames: %s", names)
                        .isGreaterThan(names.indexOf("park_in_cxx"));
                return names;
            }
            Thread.sleep(100);
        }
        return names;
    }

    private static void build(ScratchDir dir) throws Exception {
        Process gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-O0", "-o", dir.host("libcxx_parked.so").toString(),
                dir.host("cxx_parked.c").toString()).redirectErrorStream(true).start();
        String out = new String(gcc.getInputStream().readAllBytes());
        assertThat(gcc.waitFor(60, TimeUnit.SECONDS) && gcc.exitValue() == 0).as("gcc: %s", out).isTrue();
    }
}
