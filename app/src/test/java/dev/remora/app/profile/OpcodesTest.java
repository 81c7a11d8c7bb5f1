package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --opcodes}: the instructions samples end on, named as each version names them. */
@Tag("targets")
class OpcodesTest {

    private static final Pattern DATA = Pattern.compile("<script type=\"application/json\" id=\"profile-data\">(.*?)</script>",
            Pattern.DOTALL);

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void theFlamegraphCountsTheLoopsInstructions(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-opcodes-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/runs_until_stopped.py"), List.of())).start();
            try {
                assertThat(new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8)).readLine())
                        .isEqualTo("READY");
                Path html = dir.host("opcodes.html");
                RemoraCli run = RemoraCli.run("attach", "-d", "1", "--opcodes", "--flamegraph", "-o", html, target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                Map<String, Long> opcodes = opcodesOf(Files.readString(html), "spin_forever");
                // `while True: n += 1` runs these (specialised forms carry their base names; 3.10 adds in place).
                assertThat(opcodes.keySet()).isNotEmpty().isSubsetOf("LOAD_FAST", "LOAD_FAST_BORROW", "LOAD_SMALL_INT",
                        "LOAD_CONST", "BINARY_OP", "STORE_FAST", "JUMP_BACKWARD", "NOP", "RESUME", "NOT_TAKEN",
                        "POP_TOP", "LOAD_FAST_LOAD_FAST", "STORE_FAST_LOAD_FAST", "JUMP_BACKWARD_NO_INTERRUPT",
                        "INPLACE_ADD", "JUMP_ABSOLUTE");
                assertThat(opcodes).containsKey(python.isAtLeast(3, 11) ? "BINARY_OP" : "INPLACE_ADD");
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void opcodesNeedTheFlamegraph() {
        RemoraCli run = RemoraCli.run("attach", "--opcodes", "--collapsed", "1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).isEqualTo("remora: --opcodes goes with --flamegraph or --binary (and not with --async-aware)\n");
    }

    /** The opcode counts of the flamegraph node of {@code function}. */
    private static Map<String, Long> opcodesOf(String html, String function) throws Exception {
        Matcher m = DATA.matcher(html);
        assertThat(m.find()).isTrue();
        JsonNode data = new ObjectMapper().readTree(m.group(1).replace("\\u003c", "<"));
        List<String> strings = new java.util.ArrayList<>();
        data.get("strings").forEach(s -> strings.add(s.asText()));
        Map<String, Long> counts = new HashMap<>();
        for (JsonNode node : data.get("nodes")) {
            if (strings.get(node.get(1).asInt()).equals(function)) {
                JsonNode ops = node.get(7);
                for (int i = 0; i + 1 < ops.size(); i += 2) {
                    counts.merge(strings.get(ops.get(i).asInt()), ops.get(i + 1).asLong(), Long::sum);
                }
            }
        }
        return counts;
    }
}
