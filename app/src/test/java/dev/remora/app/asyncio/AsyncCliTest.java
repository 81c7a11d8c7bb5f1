package dev.remora.app.asyncio;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ParkedThreads;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code dump --async-aware} and {@code attach --async-aware} from the command line. */
@Tag("targets")
class AsyncCliTest {

    @TempDir
    Path dir;

    static List<TargetInterpreter> withAsyncio() {
        List<TargetInterpreter> found = TargetInterpreters.all().stream().filter(t -> t.isAtLeast(3, 14)).toList();
        if (found.isEmpty()) {
            throw new IllegalStateException("no CPython 3.14 or newer provisioned");
        }
        return found;
    }

    static List<TargetInterpreter> withoutAsyncio() {
        return TargetInterpreters.all().stream().filter(t -> !t.isAtLeast(3, 14)).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withAsyncio")
    void jsonDumpNamesEveryTaskTheTargetHas(TargetInterpreter python) throws Exception {
        try (AsyncTarget target = AsyncTarget.start(python, "targets/asyncio_graph.py")) {
            RemoraCli run = RemoraCli.run("dump", "--async-aware", "--format", "json", target.pid());
            assertThat(run.exitCode()).as(run.err()).isZero();
            JsonNode root = new ObjectMapper().readTree(run.out());
            assertThat(root.get("pid").asLong()).isEqualTo(target.pid());
            assertThat(root.get("async").get("mode").asText()).isEqualTo("all");

            Map<Long, String> ours = new HashMap<>();
            for (JsonNode thread : root.get("async").get("threads")) {
                for (JsonNode task : thread.get("tasks")) {
                    assertThat(task.has("coroutine_stack")).isTrue();
                    assertThat(task.has("awaited_by")).isTrue();
                    ours.put(task.get("task_id").asLong(), task.get("task_name").asText());
                }
            }
            assertThat(ours).containsAllEntriesOf(RecordedTasks.of(target.recorded()).names());

            RemoraCli text = RemoraCli.run("dump", "--async-aware", target.pid());
            assertThat(text.exitCode()).as(text.err()).isZero();
            for (String name : RecordedTasks.of(target.recorded()).names().values()) {
                assertThat(text.out()).contains(name);
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withAsyncio")
    void asyncAwareProfilesMarkTaskBoundaries(TargetInterpreter python) throws Exception {
        try (AsyncTarget target = AsyncTarget.start(python, "targets/asyncio_busy.py")) {
            Path profile = dir.resolve("async.txt");
            RemoraCli run = RemoraCli.run("attach", "--async-aware", "-d", "1", "--collapsed", "-o", profile, target.pid());
            assertThat(run.exitCode()).as(run.err()).isZero();
            List<String> lines = Files.readAllLines(profile);
            assertThat(lines).isNotEmpty();
            assertThat(lines).allSatisfy(l -> assertThat(l).startsWith("tid:").contains(";<task "));
            assertThat(lines).anySatisfy(l -> assertThat(l).contains("<task spawner-"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("withoutAsyncio")
    void olderPythonsGetAClearMessage(TargetInterpreter python) {
        try (ParkedTarget target = ParkedThreads.start(python)) {
            RemoraCli run = RemoraCli.run("dump", "--async-aware", target.pid());
            assertThat(run.exitCode()).isEqualTo(1);
            assertThat(run.err()).startsWith("remora: asyncio introspection needs CPython 3.14 or newer").hasLineCount(1);
        }
    }

    @Test
    void asyncAwareRefusesOptionsThatDoNotApply() {
        RemoraCli run = RemoraCli.run("attach", "--async-aware", "--native", "1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--async-aware cannot be combined").hasLineCount(1);
    }
}
