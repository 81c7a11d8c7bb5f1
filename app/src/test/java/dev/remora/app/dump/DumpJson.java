package dev.remora.app.dump;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.testing.ExpectedFrame;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** Reads what {@code remora dump --format json} printed, in the harness's terms. */
public record DumpJson(JsonNode root) {

    public static DumpJson parse(String json) {
        try {
            return new DumpJson(new ObjectMapper().readTree(json));
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON: " + json, e);
        }
    }

    public long pid() {
        return root.get("pid").asLong();
    }

    public String version() {
        return root.get("python_version").asText();
    }

    public String backend() {
        return root.get("backend").asText();
    }

    /** Every thread of every interpreter, by OS thread id. */
    public Map<Long, JsonNode> threads() {
        Map<Long, JsonNode> threads = new LinkedHashMap<>();
        for (JsonNode interp : root.get("interpreters")) {
            for (JsonNode t : interp.get("threads")) {
                threads.put(t.get("thread_id").asLong(), t);
            }
        }
        return threads;
    }

    public static List<ExpectedFrame> frames(JsonNode thread) {
        List<ExpectedFrame> frames = new ArrayList<>();
        for (JsonNode f : thread.get("frames")) {
            frames.add(new ExpectedFrame(f.get("function").asText(), f.get("file").asText(), integer(f.get("line")),
                    integer(f.get("end_line")), integer(f.get("column")), integer(f.get("end_column"))));
        }
        return frames;
    }

    public static Set<String> status(JsonNode thread) {
        Set<String> status = new TreeSet<>();
        thread.get("status").forEach(s -> status.add(s.asText()));
        return status;
    }

    private static Integer integer(JsonNode n) {
        return n == null || n.isNull() ? null : n.intValue();
    }
}
