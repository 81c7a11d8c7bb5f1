package dev.remora.app.output.profile.jsonl;

import dev.remora.app.output.profile.ProfileFixture;
import dev.remora.app.output.profile.Stacks;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.Profile;
import org.junit.jupiter.api.Test;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.remora.app.output.profile.ProfileFixture.frame;
import static org.assertj.core.api.Assertions.assertThat;

class JsonlStreamTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final FrameInfo MAIN = frame("main", "/app/m.py", 10);
    private static final FrameInfo WORK = frame("work", "/app/w.py", 3);
    private static final FrameInfo ODD = new FrameInfo("odd \"name\" \\ with\nnewline\t\u0001 \u00e9\u505c\uD801\uDC00 \uD800",
            "/app/\u00e9.py", new SourceLocation(5, SourceLocation.ABSENT, 2, SourceLocation.ABSENT));
    private static final FrameInfo LATE = frame("late", "/app/l.py", 8);

    /** Three windows (one empty) written while the profile grows, then the end: every line, as written. */
    private static List<String> streamedLines() throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        ProfileFixture f = new ProfileFixture();
        try (JsonlStream stream = new JsonlStream(new BufferedOutputStream(file, 1 << 16))) {
            f.repeat(3, 11, WORK, MAIN).sample(12, ODD, MAIN).sample(11, PseudoFrames.GC, WORK, MAIN);
            stream.window(f.profile(), 0, 5);
            assertThat(file.toString(StandardCharsets.UTF_8)).as("flushed after a window").endsWith("\n").contains("\"window\"");

            stream.window(f.profile(), 5, 5);
            f.repeat(2, 12, LATE, WORK, MAIN).sample(-2L, MAIN);
            stream.window(f.profile(), 5, 8);
            Profile done = f.finish();
            stream.finish(done);
            assertThat(file.toString(StandardCharsets.UTF_8)).as("flushed at the end").contains("\"end\"");
        }
        String text = file.toString(StandardCharsets.UTF_8);
        assertThat(text).endsWith("\n");
        return List.of(text.substring(0, text.length() - 1).split("\n", -1));
    }

    @Test
    void recordsInOrderWithMetaFirstAndEndLast() throws IOException {
        List<JsonNode> records = parse(streamedLines());
        assertThat(records).extracting(r -> r.get("type").asText())
                .containsExactly("meta", "frames", "window", "frames", "window", "end");
        assertThat(records).allSatisfy(r -> assertThat(r.get("v").asInt()).isZero());

        JsonNode meta = records.getFirst();
        assertThat(meta.get("pid").asInt()).isEqualTo(ProfileFixture.PID);
        assertThat(meta.get("python_version").asText()).isEqualTo("3.15.2");
        assertThat(meta.get("mode").asText()).isEqualTo("wall");
        assertThat(meta.get("sample_interval_usec").asLong()).isEqualTo(1000);

        JsonNode end = records.getLast();
        assertThat(end.get("samples_total").asLong()).isEqualTo(8);
        assertThat(end.get("error_rate").asDouble()).isEqualTo(0.2);
        assertThat(end.get("errors").asLong()).isEqualTo(2);
        assertThat(end.get("error_reasons").get("walk failed").asLong()).isEqualTo(2);
        assertThat(end.get("achieved_rate_hz").asDouble()).isEqualTo(10 * 1e9 / 8_000_000);
    }

    @Test
    void windowsHoldTheStacksOfTheirSamplesPerThread() throws IOException {
        List<JsonNode> records = parse(streamedLines());
        Map<Long, JsonNode> frames = new HashMap<>();
        List<Map<String, Long>> windows = new ArrayList<>();
        long samples = 0;
        for (JsonNode r : records) {
            switch (r.get("type").asText()) {
                case "frames" -> r.get("frames").forEach(fr -> {
                    assertThat(frames.put(fr.get("frame_id").asLong(), fr)).as("each frame written once").isNull();
                });
                case "window" -> {
                    Map<String, Long> stacks = new LinkedHashMap<>();
                    long inWindow = 0;
                    for (JsonNode thread : r.get("threads")) {
                        for (JsonNode stack : thread.get("stacks")) {
                            List<String> names = new ArrayList<>();
                            stack.get("frames").forEach(id -> {
                                assertThat(frames).as("frame defined before use").containsKey(id.asLong());
                                names.add(frames.get(id.asLong()).get("function").asText());
                            });
                            stacks.put(thread.get("thread_id").asText() + ":" + String.join(">", names), stack.get("count").asLong());
                            inWindow += stack.get("count").asLong();
                        }
                    }
                    assertThat(r.get("samples").asLong()).isEqualTo(inWindow);
                    samples += inWindow;
                    windows.add(stacks);
                }
                default -> { }
            }
        }
        assertThat(samples).isEqualTo(records.getLast().get("samples_total").asLong());
        assertThat(windows.get(0)).containsExactly(
                Map.entry("11:main>work", 3L), Map.entry("11:main>work><GC>", 1L), Map.entry("12:main>" + ODD.function(), 1L));
        assertThat(windows.get(1)).containsExactly(
                Map.entry("12:main>work>late", 2L), Map.entry("18446744073709551614:main", 1L));
        assertThat(records.get(2).get("start_us").asLong()).isEqualTo(0);
        assertThat(records.get(2).get("end_us").asLong()).isEqualTo(4000);
        assertThat(records.get(4).get("start_us").asLong()).isEqualTo(5000);
        assertThat(records.get(4).get("end_us").asLong()).isEqualTo(7000);
    }

    @Test
    void framesCarryTheirLocationAndLeaveOutWhatIsAbsent() throws IOException {
        Map<String, JsonNode> byFunction = new HashMap<>();
        for (JsonNode r : parse(streamedLines())) {
            if (r.get("type").asText().equals("frames")) {
                r.get("frames").forEach(fr -> byFunction.put(fr.get("function").asText(), fr));
            }
        }
        assertThat(JSON.writeValueAsString(byFunction.get("work")))
                .isEqualTo("{\"frame_id\":0,\"function\":\"work\",\"file\":\"/app/w.py\",\"line\":3,\"end_line\":3,\"column\":4,\"end_column\":12}");
        assertThat(JSON.writeValueAsString(byFunction.get("<GC>")))
                .isEqualTo("{\"frame_id\":3,\"function\":\"<GC>\",\"file\":\"~\",\"line\":0}");
        JsonNode odd = byFunction.get(ODD.function());
        assertThat(odd.get("file").asText()).isEqualTo(ODD.file());
        assertThat(odd.get("line").asInt()).isEqualTo(5);
        assertThat(odd.get("column").asInt()).isEqualTo(2);
        assertThat(odd.has("end_line")).isFalse();
        assertThat(odd.has("end_column")).isFalse();
    }

    @Test
    void everyPrefixOfWholeLinesParses() throws IOException {
        List<String> lines = streamedLines();
        for (int cut = 1; cut <= lines.size(); cut++) {
            List<String> prefix = lines.subList(0, cut);
            String file = String.join("\n", prefix) + "\n";
            // A reader of a cut file: line by line, every line whole JSON, every frame id it meets defined.
            List<Long> defined = new ArrayList<>();
            for (String line : file.split("\n")) {
                JsonNode r = JSON.readTree(line);
                if (r.get("type").asText().equals("frames")) {
                    r.get("frames").forEach(fr -> defined.add(fr.get("frame_id").asLong()));
                }
                if (r.get("type").asText().equals("window")) {
                    r.get("threads").forEach(t -> t.get("stacks").forEach(s -> s.get("frames")
                            .forEach(id -> assertThat(defined).contains(id.asLong()))));
                }
            }
        }
        assertThat(lines).allSatisfy(l -> assertThat(l).doesNotContain("\n").isNotEmpty());
    }

    @Test
    void wholeProfileAsOneWindowAndAnEmptyProfile() throws IOException {
        ByteArrayOutputStream file = new ByteArrayOutputStream();
        try (JsonlStream stream = new JsonlStream(file)) {
            Profile p = Stacks.small();
            stream.window(p, 0, p.samples().size());
            stream.finish(p);
        }
        List<JsonNode> records = parse(List.of(file.toString(StandardCharsets.UTF_8).split("\n")));
        assertThat(records).extracting(r -> r.get("type").asText()).containsExactly("meta", "frames", "window", "end");
        assertThat(records.get(2).get("samples").asInt()).isEqualTo(8);

        ByteArrayOutputStream empty = new ByteArrayOutputStream();
        try (JsonlStream stream = new JsonlStream(empty)) {
            Profile p = Stacks.empty(dev.remora.domain.profile.ProfileMode.CPU);
            stream.window(p, 0, 0);
            stream.finish(p);
        }
        records = parse(List.of(empty.toString(StandardCharsets.UTF_8).split("\n")));
        assertThat(records).extracting(r -> r.get("type").asText()).containsExactly("meta", "end");
        assertThat(records.getFirst().get("mode").asText()).isEqualTo("cpu");
        assertThat(records.getLast().get("samples_total").asInt()).isZero();
    }

    private static List<JsonNode> parse(List<String> lines) throws IOException {
        List<JsonNode> records = new ArrayList<>();
        for (String line : lines) {
            records.add(JSON.readTree(line));
        }
        return records;
    }
}
