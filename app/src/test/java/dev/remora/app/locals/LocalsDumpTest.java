package dev.remora.app.locals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.CoreFiles;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code dump --locals}: each parked frame's variables (a closure and its caller, a generator, a
 * coroutine) equal what the target recorded of them with {@code repr()}, on every supported version,
 * through both live backends and from a core of the same process.
 */
@Tag("targets")
class LocalsDumpTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path cores;

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void variablesAreWhatTheTargetSaysTheyAre(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-locals-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/parked_locals.py"),
                    List.of(dir.inRoot("out.json")))).redirectError(dir.host("stderr.txt").toFile()).start();
            try {
                ParkedTarget.awaitReady(target, System.nanoTime() + ParkedTarget.READY_TIMEOUT.toNanos());
                JsonNode expected = JSON.readTree(Files.readString(dir.host("out.json"))).get("frames");
                String pid = Long.toString(target.pid());
                assertVariables(expected, dump("dump", "--locals", "-a", "--format", "json", pid), "vmreadv");
                assertVariables(expected, dump("dump", "--locals", "-a", "--format", "json", "--backend", "procmem", pid),
                        "procmem");
                List<Object> core = new ArrayList<>(List.of("dump", "--locals", "-a", "--format", "json", "--core"));
                if (python.chrooted()) {
                    core.addAll(List.of(CoreFiles.kernelCore(target.pid(), cores), "--sysroot", python.root().toString()));
                } else {
                    core.add(CoreFiles.gcore(target.pid(), cores));
                }
                assertVariables(expected, dump(core.toArray()), "core");
            } finally {
                ParkedTarget.kill(target);
            }
        }
    }

    static List<TargetInterpreter> asyncioInterpreters() {
        return TargetInterpreters.all().stream().filter(p -> p.isAtLeast(3, 14)).toList();
    }

    /** {@code --async-aware --locals}: each suspended task's coroutine frame shows its own variables. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("asyncioInterpreters")
    void taskFramesShowTheirVariables(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-async-locals-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/asyncio_locals.py"), List.of()))
                    .redirectError(dir.host("stderr.txt").toFile()).start();
            try {
                ParkedTarget.awaitReady(target, System.nanoTime() + ParkedTarget.READY_TIMEOUT.toNanos());
                JsonNode dump = dump("dump", "--async-aware", "--locals", "--format", "json", Long.toString(target.pid()));
                List<String> workers = new ArrayList<>();
                for (JsonNode thread : dump.get("async").get("threads")) {
                    for (JsonNode task : thread.get("tasks")) {
                        for (JsonNode frame : task.get("coroutine_stack").get(0).get("call_stack")) {
                            if (frame.get("function").asText().equals("worker")) {
                                List<String> variables = new ArrayList<>();
                                frame.get("locals").forEach(v -> variables.add(
                                        v.get("kind").asText() + " " + v.get("name").asText() + " = " + v.get("repr").asText()));
                                workers.add(task.get("task_name").asText() + ": " + String.join(", ", variables));
                            }
                        }
                    }
                }
                assertThat(workers).containsExactlyInAnyOrder(
                        "w0: argument n = 0, argument label = 'w0', local total = 0, local note = 'worker w0'",
                        "w1: argument n = 1, argument label = 'w1', local total = 2, local note = 'worker w1'",
                        "w2: argument n = 2, argument label = 'w2', local total = 4, local note = 'worker w2'");
            } finally {
                ParkedTarget.kill(target);
            }
        }
    }

    private static JsonNode dump(Object... args) throws IOException {
        RemoraCli run = RemoraCli.run(args);
        assertThat(run.exitCode()).as("%s: %s", List.of(args), run.err()).isZero();
        return JSON.readTree(run.out());
    }

    /** Each parked function's variables, in order: name, kind, type and repr (a prefix where the expected ends in '*'). */
    private static void assertVariables(JsonNode expected, JsonNode dump, String source) {
        Map<String, JsonNode> frames = new java.util.HashMap<>();
        for (JsonNode interpreter : dump.get("interpreters")) {
            for (JsonNode thread : interpreter.get("threads")) {
                for (JsonNode frame : thread.get("frames")) {
                    String function = frame.get("function").asText();
                    frames.putIfAbsent(function.substring(function.lastIndexOf('.') + 1), frame);
                }
            }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = expected.properties().iterator(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> want = it.next();
            JsonNode frame = frames.get(want.getKey());
            assertThat(frame).as("frame %s (%s)", want.getKey(), source).isNotNull();
            assertThat(frame.has("locals_problem")).as("%s (%s): %s", want.getKey(), source, frame.get("locals_problem")).isFalse();
            List<String> got = new ArrayList<>();
            for (JsonNode v : frame.get("locals")) {
                got.add(v.get("name").asText() + " " + v.get("kind").asText() + " " + v.get("type").asText());
            }
            List<String> names = new ArrayList<>();
            for (JsonNode v : want.getValue()) {
                names.add(v.get(0).asText() + " " + v.get(1).asText() + " " + v.get(2).asText());
            }
            assertThat(got).as("variables of %s (%s)", want.getKey(), source).containsExactlyElementsOf(names);
            int i = 0;
            for (JsonNode v : want.getValue()) {
                String repr = frame.get("locals").get(i++).get("repr").asText();
                String wanted = v.get(3).asText();
                if (wanted.endsWith("*")) {
                    assertThat(repr).as("%s.%s (%s)", want.getKey(), v.get(0).asText(), source)
                            .startsWith(wanted.substring(0, wanted.length() - 1));
                } else {
                    assertThat(repr).as("%s.%s (%s)", want.getKey(), v.get(0).asText(), source).isEqualTo(wanted);
                }
            }
        }
    }
}
