package dev.remora.app.dump;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Thread status comes from the GIL, the OS and (3.13+) the thread's exception state. */
@Tag("targets")
class ThreadStatusTest {

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void spinningSleepingAndHandlingThreadsAreTold(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-status-")) {
            String script = dir.copyResource("targets/status_threads.py");
            Process target = new ProcessBuilder(python.scriptCommand(script, List.of())).redirectErrorStream(true).start();
            try {
                String[] ids = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8))
                        .readLine().split(" ");
                long handler = Long.parseLong(ids[0]);
                long sleeper = Long.parseLong(ids[1]);
                // Handling exceptions that a generator, a coroutine and a generator expression keep.
                List<Long> kept = List.of(Long.parseLong(ids[2]), Long.parseLong(ids[3]), Long.parseLong(ids[4]));
                long main = target.pid();

                // Status is sampled: the spinner may be between two time slices in any single dump.
                List<Map<Long, Set<String>>> dumps = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    RemoraCli run = RemoraCli.run("dump", "-a", "--format", "json", main);
                    assertThat(run.exitCode()).as(run.err()).isZero();
                    Map<Long, JsonNode> threads = DumpJson.parse(run.out()).threads();
                    assertThat(threads.keySet()).containsExactlyInAnyOrder(main, handler, sleeper, kept.get(0), kept.get(1),
                            kept.get(2));
                    Map<Long, Set<String>> status = new java.util.HashMap<>();
                    threads.forEach((id, thread) -> status.put(id, DumpJson.status(thread)));
                    dumps.add(status);
                }
                assertThat(dumps).anySatisfy(d -> assertThat(d.get(main)).contains("main_thread", "has_gil", "on_cpu"));
                assertThat(dumps).allSatisfy(d -> {
                    assertThat(d.get(main)).contains("main_thread");
                    assertThat(d.get(sleeper)).doesNotContain("main_thread", "on_cpu", "has_gil", "has_exception");
                    assertThat(d.get(handler)).doesNotContain("main_thread", "on_cpu", "has_gil");
                });
                // 3.15 exports where a thread keeps the exception it handles; 3.13 and 3.14 have it in their table.
                boolean exportsExceptions = python.isAtLeast(3, 13);
                assertThat(dumps).allSatisfy(d -> assertThat(d.get(handler).contains("has_exception")).isEqualTo(exportsExceptions));
                for (long thread : kept) {
                    assertThat(dumps).as("thread %d", thread)
                            .allSatisfy(d -> assertThat(d.get(thread).contains("has_exception")).isEqualTo(exportsExceptions));
                }
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
