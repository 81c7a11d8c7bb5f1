package dev.remora.app.ps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import dev.remora.app.testing.UnsupportedPython;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code remora ps} on real processes: every provisioned interpreter (one with a child process of
 * its own), an unsupported CPython, which is listed with the reason, and a process that is not
 * Python, which is not listed.
 */
@Tag("targets")
class PsCommandTest {

    private static final int THREADS = FamilyTarget.THREADS;

    @Test
    void listsEveryPythonProcessWithItsVersionAndThreads() throws Exception {
        List<FamilyTarget> started = new ArrayList<>();
        Process notPython = new ProcessBuilder("sleep", "600").start();
        Process unsupported = new ProcessBuilder(UnsupportedPython.executable().toString(), "-c",
                "import time; print('READY', flush=True); time.sleep(600)").start();
        try {
            List<TargetInterpreter> interpreters = TargetInterpreters.all();
            for (TargetInterpreter python : interpreters) {
                started.add(FamilyTarget.start(python, python == interpreters.getFirst()));
            }
            assertThat(new BufferedReader(new InputStreamReader(unsupported.getInputStream(), StandardCharsets.UTF_8))
                    .readLine()).isEqualTo("READY");

            RemoraCli run = RemoraCli.run("ps", "--format", "json");
            assertThat(run.exitCode()).as(run.err()).isZero();
            Map<Long, JsonNode> listed = byPid(run.out());
            for (FamilyTarget target : started) {
                JsonNode row = listed.get(target.process().pid());
                assertThat(row).as("%s listed", target.python()).isNotNull();
                assertThat(row.get("python_version").asText()).as("%s", target.python())
                        .startsWith(target.python().major() + "." + target.python().minor() + ".");
                assertThat(row.get("threads").asInt()).as("%s threads", target.python()).isEqualTo(THREADS + 1);
                assertThat(row.get("ppid").asLong()).isEqualTo(ProcessHandle.current().pid());
                assertThat(row.get("command").asText()).contains("ps_family.py");
                assertThat(row.has("error")).isFalse();
            }
            FamilyTarget parent = started.getFirst();
            JsonNode child = listed.get(parent.child());
            assertThat(child).as("the child of %s", parent.python()).isNotNull();
            assertThat(child.get("ppid").asLong()).isEqualTo(parent.process().pid());
            assertThat(child.get("threads").asInt()).isEqualTo(2);

            JsonNode old = listed.get(unsupported.pid());
            assertThat(old).as("the unsupported CPython").isNotNull();
            assertThat(old.get("python_version").isNull()).isTrue();
            assertThat(old.get("error").asText()).contains(UnsupportedPython.VERSION).contains(UnsupportedPython.SUPPORTED);
            assertThat(listed).as("a process that is not Python").doesNotContainKey(notPython.pid());

            RemoraCli tree = RemoraCli.run("ps", "--tree", parent.process().pid(), "--format", "json");
            assertThat(tree.exitCode()).as(tree.err()).isZero();
            assertThat(byPid(tree.out()).keySet()).containsExactlyInAnyOrder(parent.process().pid(), parent.child());

            RemoraCli text = RemoraCli.run("ps", "--tree", parent.process().pid());
            assertThat(text.out()).startsWith("PID").contains(Long.toString(parent.child())).contains("ps_family.py");
        } finally {
            started.forEach(FamilyTarget::close);
            ParkedTarget.kill(notPython);
            ParkedTarget.kill(unsupported);
        }
    }

    @Test
    void aTreeOfNoProcessIsAOneLineError() {
        RemoraCli run = RemoraCli.run("ps", "--tree", "999999999");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("remora: --tree 999999999: no such process");
    }

    private static Map<Long, JsonNode> byPid(String json) throws Exception {
        Map<Long, JsonNode> rows = new HashMap<>();
        for (JsonNode row : new ObjectMapper().readTree(json)) {
            rows.put(row.get("pid").asLong(), row);
        }
        return rows;
    }
}
