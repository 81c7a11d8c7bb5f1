package dev.remora.app.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the JSON that parked_threads.py and cpython_reference.py print:
 * {@code {"pid", "version", "threads": [{"thread_id", "name", "frames": [{"function", "file",
 * "line", "end_line", "column", "end_column"}]}]}}. Other keys (the reference's "interpreter_id"
 * and "status") are ignored; a missing required key is an error, not a default.
 */
final class StackJson {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private StackJson() {}

    static ExpectedProcess parse(String json, String source) {
        try {
            JsonNode root = MAPPER.readTree(json);
            List<ExpectedThread> threads = new ArrayList<>();
            for (JsonNode thread : required(root, "threads", source)) {
                threads.add(thread(thread, source));
            }
            return new ExpectedProcess(required(root, "pid", source).asLong(), required(root, "version", source).asText(), threads);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot parse stacks from " + source, e);
        }
    }

    private static ExpectedThread thread(JsonNode thread, String source) {
        List<ExpectedFrame> frames = new ArrayList<>();
        for (JsonNode frame : required(thread, "frames", source)) {
            frames.add(new ExpectedFrame(
                    required(frame, "function", source).asText(),
                    required(frame, "file", source).asText(),
                    nullableInt(frame, "line", source),
                    nullableInt(frame, "end_line", source),
                    nullableInt(frame, "column", source),
                    nullableInt(frame, "end_column", source)));
        }
        JsonNode name = required(thread, "name", source);
        return new ExpectedThread(required(thread, "thread_id", source).asLong(), name.isNull() ? null : name.asText(), frames);
    }

    private static JsonNode required(JsonNode node, String key, String source) {
        JsonNode value = node.get(key);
        if (value == null) {
            throw new IllegalStateException("no \"" + key + "\" in " + node + " from " + source);
        }
        return value;
    }

    private static Integer nullableInt(JsonNode node, String key, String source) {
        JsonNode value = required(node, key, source);
        return value.isNull() ? null : value.intValue();
    }
}
