package dev.remora.app.asyncio;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.output.asyncio.AsyncJsonWriter;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.asyncio.AsyncThread;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The JSON of a task graph: exactly the documented keys, CPython's shapes, dump's frames. */
@Tag("targets")
class AsyncJsonWriterTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void usesExactlyTheDocumentedKeys() throws Exception {
        JsonNode root = MAPPER.readTree(json(SampleGraphs.all()));

        assertThat(keys(root)).containsExactly("pid", "python_version", "async");
        assertThat(root.get("pid").asInt()).isEqualTo(123);
        assertThat(root.get("python_version").asText()).isEqualTo("3.15.2");
        JsonNode async = root.get("async");
        assertThat(keys(async)).containsExactly("mode", "threads");
        assertThat(async.get("mode").asText()).isEqualTo("all");
        JsonNode thread = async.get("threads").get(0);
        assertThat(keys(thread)).containsExactly("thread_id", "tasks");
        assertThat(thread.get("thread_id").asLong()).isEqualTo(7);
        JsonNode shared = thread.get("tasks").get(3);
        assertThat(keys(shared)).containsExactly("task_id", "task_name", "coroutine_stack", "awaited_by");
        assertThat(shared.get("task_id").asLong()).isEqualTo(0x40);
        assertThat(shared.get("task_name").asText()).isEqualTo("sh\"ared-𐐀");
        JsonNode coro = shared.get("coroutine_stack").get(0);
        assertThat(keys(coro)).containsExactly("task_name", "call_stack");
        assertThat(coro.get("task_name").isNumber()).isTrue();
        assertThat(coro.get("task_name").asLong()).isEqualTo(0x40);
        JsonNode frame = coro.get("call_stack").get(0);
        assertThat(keys(frame)).containsExactly("function", "file", "line", "end_line", "column", "end_column");
        assertThat(frame.toString()).isEqualTo("{\"function\":\"Event.wait\",\"file\":\"/usr/lib/python3.15/asyncio/locks.py\","
                + "\"line\":213,\"end_line\":213,\"column\":12,\"end_column\":21}");
        assertThat(coro.get("call_stack").get(1).toString()).isEqualTo("{\"function\":\"<genexpr>\",\"file\":\"/app/t.py\","
                + "\"line\":null,\"end_line\":null,\"column\":null,\"end_column\":null}");
        JsonNode waiter = shared.get("awaited_by").get(1);
        assertThat(keys(waiter)).containsExactly("task_name", "call_stack");
        assertThat(waiter.get("task_name").asLong()).as("the waiting task's id").isEqualTo(0x30);
        assertThat(async.get("threads").get(2).get("thread_id").asLong()).isZero();
    }

    @Test
    void namesTheRunningMode() throws Exception {
        assertThat(MAPPER.readTree(json(SampleGraphs.running())).get("async").get("mode").asText()).isEqualTo("running");
    }

    @Test
    void escapesWhatJsonCannotHoldRaw() {
        AsyncSnapshot odd = new AsyncSnapshot(1, SampleGraphs.VERSION, AsyncMode.ALL, List.of(
                new AsyncThread(2, List.of(
                        SampleGraphs.task(3, "tab\tnl\nlone\uD800end\\", List.of())))));
        assertThat(json(odd)).contains("\"task_name\":\"tab\\tnl\\nlone\\ud800end\\\\\"");
    }

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all().stream().filter(t -> t.isAtLeast(3, 14)).toList();
    }

    /** The document of a real target reads back, through the reader of CPython's shape, as the same graph. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void aRealGraphReadsBackUnchanged(TargetInterpreter python) throws Exception {
        try (AsyncTarget target = AsyncTarget.start(python, "targets/asyncio_graph.py")) {
            AsyncSnapshot snapshot = AsyncGraphTest.snapshot(target, AsyncMode.ALL);
            JsonNode root = MAPPER.readTree(json(snapshot));
            assertThat(root.get("pid").asInt()).isEqualTo(target.pid());
            assertThat(GraphView.ofCpython(root.get("async"), true)).isEqualTo(GraphView.of(snapshot, true));
        }
    }

    private static String json(AsyncSnapshot snapshot) {
        StringWriter text = new StringWriter();
        new AsyncJsonWriter().write(snapshot, new PrintWriter(text));
        return text.toString();
    }

    private static List<String> keys(JsonNode node) {
        List<String> keys = new ArrayList<>();
        node.fieldNames().forEachRemaining(keys::add);
        return keys;
    }
}
