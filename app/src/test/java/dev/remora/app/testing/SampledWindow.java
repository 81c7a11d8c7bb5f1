package dev.remora.app.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The stretch of time a profile sampled, in Unix seconds, as its own metadata gives it; a target that
 * times its calls (targets/timed_calls.py) is asked for its split of exactly this stretch, so that what
 * it did before and after the profile, unwatched, does not count.
 */
public record SampledWindow(double startUnixSeconds, double endUnixSeconds) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static SampledWindow of(long startEpochMillis, double elapsedSeconds) {
        return new SampledWindow(startEpochMillis / 1e3, startEpochMillis / 1e3 + elapsedSeconds);
    }

    /** From a jsonl profile: the meta record's start and the end record's elapsed time. */
    public static SampledWindow ofJsonl(Path file) throws IOException {
        List<String> records = Files.readAllLines(file);
        JsonNode meta = JSON.readTree(records.getFirst());
        JsonNode end = JSON.readTree(records.getLast());
        if (!meta.path("type").asText().equals("meta") || !end.path("type").asText().equals("end")) {
            throw new IllegalStateException("no meta and end records in " + file);
        }
        return of(meta.get("start_unix_ms").asLong(), end.get("elapsed_us").asDouble() / 1e6);
    }

    /** From the heatmap page's metadata. */
    public static SampledWindow ofHeatmap(JsonNode meta) {
        return of(meta.get("startEpochMillis").asLong(), meta.get("durationNanos").asDouble() / 1e9);
    }

    /** Tells the target this window and reads back its split of it, one JSON line. */
    public JsonNode askTarget(Process target, BufferedReader targetOutput) throws IOException {
        OutputStream in = target.getOutputStream();
        in.write(String.format(Locale.ROOT, "%.6f %.6f%n", startUnixSeconds, endUnixSeconds).getBytes(StandardCharsets.US_ASCII));
        in.flush();
        String line = targetOutput.readLine();
        if (line == null) {
            throw new IllegalStateException("the target gave no split for " + this);
        }
        return JSON.readTree(line);
    }
}
