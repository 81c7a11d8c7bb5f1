package dev.remora.app.output.profile.speedscope;

import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.ProfileMerger;
import dev.remora.domain.profile.SampleKeeping;
import dev.remora.app.output.profile.JsonSchemaSubset;
import dev.remora.app.output.profile.ProfileFixture;
import dev.remora.app.output.profile.SampleProfile;
import static dev.remora.app.output.profile.ProfileFixture.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.remora.domain.profile.Profile;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

class SpeedscopeWriterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void validatesAgainstSpeedscopesOwnSchema() throws IOException {
        JsonNode file = write(SampleProfile.build());

        assertThat(schema().validate(file)).isEmpty();
    }

    @Test
    void schemaCheckRejectsWhatSpeedscopeWouldNotRead() throws IOException {
        ObjectNode file = (ObjectNode) write(SampleProfile.build());
        ((ObjectNode) file.get("profiles").get(0)).remove("weights");
        ((ObjectNode) file.get("shared").get("frames").get(0)).put("line", "20");
        file.put("$schema", "https://example.org/other.json");

        assertThat(schema().validate(file))
                .anySatisfy(e -> assertThat(e).startsWith("/profiles/0: matches no alternative")
                        .contains("missing required member weights"))
                .anySatisfy(e -> assertThat(e).startsWith("/shared/frames/0/line: expected number"))
                .anySatisfy(e -> assertThat(e).startsWith("/$schema: expected"));
    }

    @Test
    void schemaCheckRefusesKeywordsItDoesNotImplement() throws IOException {
        ObjectNode schema = (ObjectNode) JSON.readTree("{\"type\":\"object\",\"minProperties\":1}");

        assertThatThrownBy(() -> new JsonSchemaSubset(schema).validate(JSON.readTree("{}")))
                .hasMessageContaining("minProperties");
    }

    @Test
    void writesOneSampledProfilePerThreadNamedAfterIt() throws IOException {
        JsonNode file = write(SampleProfile.build());

        assertThat(file.get("$schema").asText()).isEqualTo("https://www.speedscope.app/file-format-schema.json");
        assertThat(file.get("exporter").asText()).isEqualTo("remora");
        assertThat(file.get("name").asText()).as("the tick that gave no stack is counted, with its reason")
                .endsWith(", 14 samples, 1 errors (1 unreadable memory)");
        List<String> names = new ArrayList<>();
        file.get("profiles").forEach(p -> names.add(p.get("name").asText()));
        assertThat(names).containsExactly("Thread 1001 [MainThread]", "Thread 1002 [worker \"1\"]", "Thread 1003");
        assertThat(file.get("activeProfileIndex").asInt()).isZero();
        for (JsonNode profile : file.get("profiles")) {
            assertThat(profile.get("type").asText()).isEqualTo("sampled");
            assertThat(profile.get("unit").asText()).isEqualTo("milliseconds");
        }
    }

    @Test
    void opensOnTheMainThreadWhereverItIs() throws IOException {
        List<SampleProfile.Walk> mainLast = new ArrayList<>(SampleProfile.WALKS);
        mainLast.sort((a, b) -> Boolean.compare(a.tid() == SampleProfile.MAIN, b.tid() == SampleProfile.MAIN));

        JsonNode file = write(SampleProfile.build(mainLast));

        int active = file.get("activeProfileIndex").asInt();
        assertThat(file.get("profiles").get(active).get("name").asText()).isEqualTo("Thread 1001 [MainThread]");
    }

    @Test
    void samplesAreFrameIndexesRootFirstWeighingOneIntervalEach() throws IOException {
        JsonNode file = write(SampleProfile.build());
        JsonNode frames = file.get("shared").get("frames");
        long[] tids = {SampleProfile.MAIN, SampleProfile.WORKER, SampleProfile.ANONYMOUS};

        Map<String, Long> counts = new LinkedHashMap<>();
        for (int p = 0; p < tids.length; p++) {
            JsonNode profile = file.get("profiles").get(p);
            long samples = SampleProfile.samplesOf(tids[p]);
            assertThat(profile.get("samples")).hasSize((int) samples);
            assertThat(profile.get("weights")).hasSize((int) samples)
                    .allSatisfy(w -> assertThat(w.asDouble()).isEqualTo(10.0));
            assertThat(profile.get("startValue").asDouble()).isZero();
            assertThat(profile.get("endValue").asDouble()).isEqualTo(samples * 10.0);
            for (JsonNode sample : profile.get("samples")) {
                List<String> names = new ArrayList<>();
                sample.forEach(i -> names.add(frames.get(i.asInt()).get("name").asText()));
                counts.merge(tids[p] + ";" + String.join(";", names), 1L, Long::sum);
            }
        }

        assertThat(counts).isEqualTo(SampleProfile.expectedCounts());
    }

    @Test
    void framesCarryFileAndOneBasedPositionWhereKnown() throws IOException {
        JsonNode frames = write(SampleProfile.build()).get("shared").get("frames");

        assertThat(find(frames, "main")).isEqualTo(JSON.readTree(
                "{\"name\":\"main\",\"file\":\"/app/main.py\",\"line\":10,\"col\":5}"));
        assertThat(find(frames, "inner")).isEqualTo(JSON.readTree("{\"name\":\"inner\",\"file\":\"/app/work.py\"}"));
        assertThat(find(frames, "<native>")).isEqualTo(JSON.readTree("{\"name\":\"<native>\"}"));
        assertThat(find(frames, "<GC>")).isEqualTo(JSON.readTree("{\"name\":\"<GC>\"}"));
        assertThat(find(frames, SampleProfile.ODD_NAME.function()).get("file").asText())
                .isEqualTo(SampleProfile.ODD_NAME.file());
    }

    @Test
    void threadsWithoutSamplesAreLeftOutOfAStillValidFile() throws IOException {
        // The main thread's only stack is one that was cut short: the thread is known, with no sample.
        Profile profile = SampleProfile.build(List.of());
        assertThat(profile.threads().size()).isEqualTo(1);

        JsonNode file = write(profile);

        assertThat(schema().validate(file)).isEmpty();
        assertThat(file.get("profiles")).isEmpty();
        assertThat(file.get("activeProfileIndex").asInt()).isZero();
    }

    private static JsonNode find(JsonNode frames, String name) {
        for (JsonNode f : frames) {
            if (f.get("name").asText().equals(name)) {
                return f;
            }
        }
        throw new AssertionError("no frame " + name + " in " + frames);
    }

    @Test
    void aMergedProcessTreeHasOneProfilePerProcessWithItsThreadsUnderIt() throws IOException {
        Profile parent = new ProfileFixture(100, ProfileMode.WALL, 1_000_000)
                .sample(7, frame("serve", "/a/app.py", 3)).sample(9, frame("log", "/a/app.py", 8))
                .sample(7, frame("serve", "/a/app.py", 3)).finish();
        Profile child = new ProfileFixture(200, ProfileMode.WALL, 1_000_000).sample(8, frame("work", "/a/job.py", 5)).finish();
        JsonNode file = write(ProfileMerger.merge(List.of(new ProfileMerger.Part(parent, "python app.py"),
                new ProfileMerger.Part(child, "python job.py")), SampleKeeping.EVERY_SAMPLE));
        assertThat(schema().validate(file)).isEmpty();

        List<String> names = new ArrayList<>();
        List<List<String>> parentStacks = new ArrayList<>();
        JsonNode frames = file.get("shared").get("frames");
        for (JsonNode p : file.get("profiles")) {
            names.add(p.get("name").asText());
            if (p.get("name").asText().equals("Process 100")) {
                for (JsonNode sample : p.get("samples")) {
                    List<String> stack = new ArrayList<>();
                    sample.forEach(f -> stack.add(frames.get(f.asInt()).get("name").asText()));
                    parentStacks.add(stack);
                }
                assertThat(p.get("endValue").asDouble()).isEqualTo(3.0);
            }
        }
        assertThat(names).containsExactly("Process 100", "Process 200");
        assertThat(parentStacks).containsExactly(
                List.of("process 100: python app.py", "Thread 7", "serve"),
                List.of("process 100: python app.py", "Thread 9", "log"),
                List.of("process 100: python app.py", "Thread 7", "serve"));
    }

    @Test
    void aProfileWithoutSamplesIsAValidFileWithNoProfiles() throws IOException {
        JsonNode file = write(new ProfileFixture().finish());
        assertThat(schema().validate(file)).isEmpty();
        assertThat(file.get("profiles")).isEmpty();
        assertThat(file.get("activeProfileIndex").asInt()).isZero();
    }

    static JsonNode write(Profile profile) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new SpeedscopeWriter().write(profile, out);
        return JSON.readTree(out.toByteArray());
    }

    private static JsonSchemaSubset schema() throws IOException {
        try (InputStream in = SpeedscopeWriterTest.class.getResourceAsStream("speedscope-file-format-schema.json")) {
            assertThat(in).as("speedscope's schema on the test class path").isNotNull();
            return new JsonSchemaSubset(JSON.readTree(in));
        }
    }
}
