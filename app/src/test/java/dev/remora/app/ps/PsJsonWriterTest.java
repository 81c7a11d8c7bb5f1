package dev.remora.app.ps;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

/** ps's JSON: the documented keys, null where a process could not be read, any command line. */
class PsJsonWriterTest {

    @Test
    void writesReadAndUnreadableProcesses() throws Exception {
        List<PythonProcessRow> rows = List.of(
                PythonProcessRow.read(10, 1, "3.15.2", 4, List.of("python3", "-c", "print(\"hi\\\\\")")),
                PythonProcessRow.unreadable(11, 10, List.of("python3.9", "app.py"), "CPython 3.9 is not \"supported\""));
        StringWriter out = new StringWriter();

        PsJsonWriter.write(rows, new PrintWriter(out));

        JsonNode listed = new ObjectMapper().readTree(out.toString());
        assertThat(listed).hasSize(2);
        assertThat(listed.get(0).fieldNames()).toIterable().containsExactly("pid", "ppid", "python_version", "threads", "command");
        assertThat(listed.get(0).get("command").asText()).isEqualTo("python3 -c print(\"hi\\\\\")");
        assertThat(listed.get(0).get("threads").asInt()).isEqualTo(4);
        JsonNode unreadable = listed.get(1);
        assertThat(unreadable.fieldNames()).toIterable()
                .containsExactly("pid", "ppid", "python_version", "threads", "command", "error");
        assertThat(unreadable.get("ppid").asInt()).isEqualTo(10);
        assertThat(unreadable.get("python_version").isNull()).isTrue();
        assertThat(unreadable.get("threads").isNull()).isTrue();
        assertThat(unreadable.get("error").asText()).isEqualTo("CPython 3.9 is not \"supported\"");
    }
}
