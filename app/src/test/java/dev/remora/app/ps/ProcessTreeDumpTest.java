package dev.remora.app.ps;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code dump --subprocesses}: a Python process and the Python child it started, dumped together. */
@Tag("targets")
class ProcessTreeDumpTest {

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void dumpsTheProcessAndItsPythonChild(TargetInterpreter python) throws Exception {
        try (FamilyTarget target = FamilyTarget.start(python, true)) {
            long parent = target.process().pid();
            RemoraCli json = RemoraCli.run("dump", "--subprocesses", "-a", "--format", "json", parent);
            assertThat(json.exitCode()).as(json.err()).isZero();
            Map<Long, Integer> threads = new HashMap<>();
            for (JsonNode dump : new ObjectMapper().readTree(json.out())) {
                threads.put(dump.get("pid").asLong(), dump.get("interpreters").get(0).get("threads").size());
            }
            assertThat(threads).containsOnly(Map.entry(parent, FamilyTarget.THREADS + 1), Map.entry(target.child(), 2));

            RemoraCli text = RemoraCli.run("dump", "--subprocesses", parent);
            assertThat(text.exitCode()).as(text.err()).isZero();
            assertThat(text.out()).contains("Stack dump for PID " + parent + " ", "Stack dump for PID " + target.child() + " ");
        }
    }

    @Test
    void subprocessesNeedARunningProcess() {
        RemoraCli run = RemoraCli.run("dump", "--subprocesses", "--core", "/nonexistent.core");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip()).isEqualTo("remora: --subprocesses applies to a running process, not to --core");
    }
}
