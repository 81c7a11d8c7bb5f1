package dev.remora.app.dump;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.ports.RemoteMemory;
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

/** Every interpreter of a process is walked, not only the main one. */
@Tag("targets")
class SubinterpreterDumpTest {

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void aThreadParkedInASubinterpreterIsDumpedUnderItsInterpreter(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-sub-")) {
            String script = dir.copyResource("targets/subinterpreter.py");
            Process target = new ProcessBuilder(python.scriptCommand(script, List.of())).redirectErrorStream(true).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                JsonNode sub = awaitSubinterpreterParked(target.pid());

                assertThat(sub.get("interpreter_id").asLong()).isPositive();
                JsonNode thread = sub.get("threads").get(0);
                assertThat(DumpJson.frames(thread)).extracting(f -> f.function() + "@" + f.line())
                        .containsExactly("sub_park@5", "<module>@6");
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void aSubinterpreterCreatedWhileWalksGoOnIsWalkedSoonAfter(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-sub-")) {
            String script = dir.copyResource("targets/subinterpreter.py");
            Process target = new ProcessBuilder(python.scriptCommand(script, List.of("later"))).redirectErrorStream(true).start();
            try (RemoteMemory memory = VmReadvMemory.open((int) target.pid())) {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("MAIN");
                PythonProcess process = PythonProcess.attach(ProcfsProcessImage.of((int) target.pid()), memory);
                SnapshotOptions all = SnapshotOptions.of(SnapshotOptions.Threads.ALL);
                // Back-to-back walks of a lone interpreter: the ones that reuse its address.
                for (int i = 0; i < 2000; i++) {
                    assertThat(process.snapshot(all).interpreters()).hasSize(1);
                }
                target.getOutputStream().write('\n');
                target.getOutputStream().flush();
                assertThat(out.readLine()).isEqualTo("READY");
                // The head is re-read once a millisecond and four walks have passed: a million walks take far longer.
                int seen = 1;
                for (int i = 0; i < 1_000_000 && seen == 1; i++) {
                    seen = process.snapshot(all).interpreters().size();
                }
                assertThat(seen).as("interpreters a walk met after the new one started").isEqualTo(2);
                assertThat(process.snapshot(all).interpreters()).hasSize(2);
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** The subinterpreter prints READY just before it sleeps; poll until its stack shows the sleep. */
    private static JsonNode awaitSubinterpreterParked(long pid) throws InterruptedException {
        List<String> seen = new ArrayList<>();
        for (int attempt = 0; attempt < 50; attempt++) {
            RemoraCli run = RemoraCli.run("dump", "-a", "--format", "json", pid);
            assertThat(run.exitCode()).as(run.err()).isZero();
            JsonNode interpreters = DumpJson.parse(run.out()).root().get("interpreters");
            assertThat(interpreters).hasSize(2);
            assertThat(interpreters.get(0).get("interpreter_id").asLong()).isZero();
            JsonNode sub = interpreters.get(1);
            JsonNode threads = sub.get("threads");
            if (threads.size() == 1 && threads.get(0).get("frames").size() == 2
                    && threads.get(0).get("frames").get(0).get("line").asInt() == 5) {
                return sub;
            }
            seen.add(run.out());
            Thread.sleep(100);
        }
        throw new AssertionError("the subinterpreter's thread never parked; last dump: " + seen.getLast());
    }
}
