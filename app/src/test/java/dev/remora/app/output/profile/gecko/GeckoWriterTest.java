package dev.remora.app.output.profile.gecko;

import dev.remora.app.output.profile.ProfileFixture;
import dev.remora.app.output.profile.Python;
import dev.remora.app.output.profile.SampleProfile;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.domain.profile.Profile;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

class GeckoWriterTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The columns of each table, as CPython 3.15's gecko collector writes them. */
    private static final Map<String, List<String>> TABLE_COLUMNS = Map.of(
            "samples", List.of("stack", "time", "eventDelay"),
            "stackTable", List.of("frame", "category", "subcategory", "prefix"),
            "frameTable", List.of("address", "category", "subcategory", "func", "innerWindowID", "implementation",
                    "optimizations", "line", "column", "inlineDepth", "nativeSymbol"),
            "funcTable", List.of("name", "isJS", "relevantForJS", "resource", "fileName", "lineNumber",
                    "columnNumber"),
            "resourceTable", List.of("lib", "name", "host", "type"),
            "nativeSymbols", List.of("libIndex", "address", "name", "functionSize"),
            "markers", List.of("data", "name", "startTime", "endTime", "phase", "category"));

    @Test
    void hasTheTopLevelLayoutOfCpythonsCollector() throws IOException {
        JsonNode profile = write(SampleProfile.build());

        assertThat(fieldNames(profile)).containsExactly("meta", "libs", "threads", "pages", "shared");
        assertThat(profile.get("libs")).isEmpty();
        assertThat(profile.get("pages")).isEmpty();
        assertThat(fieldNames(profile.get("shared"))).containsExactly("stringArray", "sources");
        assertThat(profile.get("shared").get("sources"))
                .isEqualTo(JSON.readTree("{\"length\":0,\"uuid\":[],\"filename\":[]}"));
        JsonNode meta = profile.get("meta");
        assertThat(meta.get("interval").asDouble()).isEqualTo(10.0);
        assertThat(meta.get("startTime").asLong()).isEqualTo(SampleProfile.START_EPOCH_MILLIS);
        assertThat(meta.get("version").asInt()).isEqualTo(32);
        assertThat(meta.get("preprocessedProfileVersion").asInt()).isEqualTo(57);
        assertThat(meta.get("product").asText()).isEqualTo("Python");
        assertThat(meta.get("misc").asText()).as("the tick that gave no stack is counted, with its reason")
                .contains("14 samples, 1 errors (1 unreadable memory)");
        assertThat(meta.get("symbolicated").asBoolean()).isTrue();
        assertThat(meta.get("markerSchema")).isEmpty();
        List<String> categories = new ArrayList<>();
        meta.get("categories").forEach(c -> {
            categories.add(c.get("name").asText());
            assertThat(c.get("subcategories")).hasSize(1);
        });
        assertThat(categories).containsExactly(
                "Other", "Python", "Native", "GC", "GIL", "CPU", "Code Type", "Opcodes", "Exception");
    }

    @Test
    void describesEachThreadOfTheTarget() throws IOException {
        JsonNode threads = write(SampleProfile.build()).get("threads");

        assertThat(threads).hasSize(3);
        List<String> names = new ArrayList<>();
        threads.forEach(t -> names.add(t.get("name").asText()));
        assertThat(names).containsExactly("Thread-1001 [MainThread]", "Thread-1002 [worker \"1\"]", "Thread-1003");
        for (JsonNode thread : threads) {
            assertThat(thread.get("pid").isTextual()).isTrue();
            assertThat(thread.get("pid").asText()).isEqualTo(Integer.toString(SampleProfile.PID));
            assertThat(thread.get("processType").asText()).isEqualTo("default");
            assertThat(thread.get("isMainThread").asBoolean())
                    .isEqualTo(thread.get("tid").asLong() == SampleProfile.MAIN);
            assertThat(thread.get("samples").get("weight").isNull()).isTrue();
            assertThat(thread.get("samples").get("weightType").asText()).isEqualTo("samples");
        }
    }

    @Test
    void aMergedProcessTreeHasEachThreadUnderItsOwnProcess() throws IOException {
        Map<Long, String> pidByThread = new java.util.HashMap<>();
        write(ProfileFixture.mergedTree()).get("threads")
                .forEach(t -> pidByThread.put(t.get("tid").asLong(), t.get("pid").asText()));
        assertThat(pidByThread).containsOnly(Map.entry(7L, "100"), Map.entry(8L, "200"));
    }

    @Test
    void tablesAreConsistent() throws IOException {
        JsonNode profile = write(SampleProfile.build());
        int strings = profile.get("shared").get("stringArray").size();
        int categories = profile.get("meta").get("categories").size();

        for (JsonNode thread : profile.get("threads")) {
            TABLE_COLUMNS.forEach((table, columns) -> {
                JsonNode t = thread.get(table);
                int length = t.get("length").asInt();
                for (String column : columns) {
                    assertThat(t.get(column)).as(table + "." + column).hasSize(length);
                }
            });
            int stacks = thread.get("stackTable").get("length").asInt();
            int frames = thread.get("frameTable").get("length").asInt();
            int funcs = thread.get("funcTable").get("length").asInt();
            int resources = thread.get("resourceTable").get("length").asInt();
            JsonNode samples = thread.get("samples");
            samples.get("stack").forEach(s -> assertThat(s.asInt()).isBetween(0, stacks - 1));
            double previous = Double.NEGATIVE_INFINITY;
            for (JsonNode time : samples.get("time")) {
                assertThat(time.asDouble()).isGreaterThanOrEqualTo(previous);
                previous = time.asDouble();
            }
            JsonNode stackTable = thread.get("stackTable");
            for (int s = 0; s < stacks; s++) {
                assertThat(stackTable.get("frame").get(s).asInt()).isBetween(0, frames - 1);
                assertThat(stackTable.get("category").get(s).asInt()).isBetween(0, categories - 1);
                assertPrefixesEndAtARoot(stackTable, s);
            }
            JsonNode frameTable = thread.get("frameTable");
            for (int f = 0; f < frames; f++) {
                assertThat(frameTable.get("func").get(f).asInt()).isBetween(0, funcs - 1);
                assertThat(frameTable.get("category").get(f).asInt()).isBetween(0, categories - 1);
            }
            JsonNode funcTable = thread.get("funcTable");
            for (int f = 0; f < funcs; f++) {
                assertThat(funcTable.get("name").get(f).asInt()).isBetween(0, strings - 1);
                assertThat(funcTable.get("resource").get(f).asInt()).isBetween(-1, resources - 1);
                JsonNode fileName = funcTable.get("fileName").get(f);
                assertThat(fileName.isNull() || fileName.asInt() < strings).isTrue();
            }
            thread.get("resourceTable").get("name").forEach(n -> assertThat(n.asInt()).isBetween(0, strings - 1));
            JsonNode markers = thread.get("markers");
            for (int m = 0; m < markers.get("length").asInt(); m++) {
                assertThat(markers.get("name").get(m).asInt()).isBetween(0, strings - 1);
                assertThat(markers.get("category").get(m).asInt()).isBetween(0, categories - 1);
                assertThat(markers.get("startTime").get(m).asDouble())
                        .isLessThanOrEqualTo(markers.get("endTime").get(m).asDouble());
                assertThat(markers.get("phase").get(m).asInt()).isEqualTo(1);
            }
        }
    }

    @Test
    void samplesPerStackEqualTheProfiles() throws IOException {
        Profile source = SampleProfile.build();
        JsonNode profile = write(source);
        JsonNode strings = profile.get("shared").get("stringArray");

        Map<String, Long> counts = new LinkedHashMap<>();
        for (JsonNode thread : profile.get("threads")) {
            for (JsonNode stack : thread.get("samples").get("stack")) {
                List<String> names = new ArrayList<>();
                for (JsonNode s = stack; !s.isNull(); s = thread.get("stackTable").get("prefix").get(s.asInt())) {
                    int frame = thread.get("stackTable").get("frame").get(s.asInt()).asInt();
                    int func = thread.get("frameTable").get("func").get(frame).asInt();
                    names.addFirst(strings.get(thread.get("funcTable").get("name").get(func).asInt()).asText());
                }
                counts.merge(thread.get("tid").asLong() + ";" + String.join(";", names), 1L, Long::sum);
            }
        }

        assertThat(counts).isEqualTo(SampleProfile.expectedCounts());
        assertThat(counts.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(source.samples().size());
    }

    @Test
    void sampleTimesAreMillisecondsSinceTheStart() throws IOException {
        JsonNode worker = thread(write(SampleProfile.build()), SampleProfile.WORKER);

        List<Double> times = new ArrayList<>();
        worker.get("samples").get("time").forEach(t -> times.add(t.asDouble()));
        assertThat(times).containsExactly(0.0, 10.0, 20.0, 30.0, 40.0, 50.0);
    }

    @Test
    void framesKnowTheirFunctionPositionAndCategory() throws IOException {
        JsonNode profile = write(SampleProfile.build());
        JsonNode strings = profile.get("shared").get("stringArray");
        JsonNode worker = thread(profile, SampleProfile.WORKER);

        Map<String, String> frames = new LinkedHashMap<>();
        JsonNode frameTable = worker.get("frameTable");
        JsonNode funcTable = worker.get("funcTable");
        for (int f = 0; f < frameTable.get("length").asInt(); f++) {
            int func = frameTable.get("func").get(f).asInt();
            JsonNode fileName = funcTable.get("fileName").get(func);
            int resource = funcTable.get("resource").get(func).asInt();
            frames.put(strings.get(funcTable.get("name").get(func).asInt()).asText()
                            + ":" + frameTable.get("line").get(f),
                    "category " + frameTable.get("category").get(f)
                            + ", column " + frameTable.get("column").get(f)
                            + ", isJS " + funcTable.get("isJS").get(func)
                            + ", file " + (fileName.isNull() ? "null" : strings.get(fileName.asInt()).asText())
                            + ", resource " + (resource < 0 ? "none" : strings.get(
                                    worker.get("resourceTable").get("name").get(resource).asInt()).asText()));
        }

        assertThat(frames).containsExactly(
                Map.entry("main:10", "category 1, column 5, isJS true, file /app/main.py, resource main.py"),
                Map.entry("inner:null", "category 1, column null, isJS true, file /app/work.py, resource work.py"),
                Map.entry("<native>:null", "category 2, column null, isJS false, file null, resource none"),
                Map.entry("Worker.compute:21", "category 1, column 9, isJS true, file /app/work.py, resource work.py"));
        JsonNode main = thread(profile, SampleProfile.MAIN);
        assertThat(main.get("frameTable").get("category")).anySatisfy(c -> assertThat(c.asInt()).isEqualTo(3));
    }

    @Test
    void markersFollowTheThreadsStates() throws IOException {
        JsonNode profile = write(SampleProfile.build());

        // The worker waits for the GIL (0-20ms), runs native code on a CPU (20-30ms), handles an
        // exception holding the GIL (30-50ms), then runs native code again until the end (60ms).
        assertThat(markers(profile, SampleProfile.WORKER)).containsExactlyInAnyOrder(
                "GIL No GIL 0-30", "GIL Waiting for GIL 0-20", "GIL Has GIL 30-50", "GIL No GIL 50-60",
                "CPU Off CPU 0-20", "CPU On CPU 20-60",
                "Code Type Native Code 20-30", "Code Type Python Code 30-50", "Code Type Native Code 50-60",
                "Exception No Exception 0-30", "Exception Has Exception 30-50", "Exception No Exception 50-60");
        // The main thread holds the GIL on a CPU throughout and collects garbage at 20 and 30ms.
        assertThat(markers(profile, SampleProfile.MAIN)).containsExactlyInAnyOrder(
                "GIL Has GIL 0-60", "CPU On CPU 0-60", "Code Type Python Code 0-60",
                "Exception No Exception 0-60", "GC GC Collecting 20-40");
        // Neither GIL nor CPU: the anonymous thread is idle, running no code of either type.
        assertThat(markers(profile, SampleProfile.ANONYMOUS)).containsExactlyInAnyOrder(
                "GIL No GIL 20-60", "CPU Off CPU 20-60", "Exception No Exception 20-60");
        JsonNode data = thread(profile, SampleProfile.WORKER).get("markers").get("data").get(0);
        assertThat(fieldNames(data)).containsExactly("type", "duration", "tid");
        assertThat(data.get("tid").asLong()).isEqualTo(SampleProfile.WORKER);
    }

    @Test
    void threadsWithoutSamplesAreLeftOut() throws IOException {
        // The main thread's only stack is one that was cut short: the thread is known, with no sample.
        Profile source = SampleProfile.build(List.of());
        assertThat(source.threads().size()).isEqualTo(1);

        JsonNode profile = write(source);

        assertThat(profile.get("threads")).isEmpty();
        assertThat(profile.get("shared").get("stringArray")).isNotNull();
    }

    /** Each marker as "category name start-end" (ms), so a test can list them all. */
    private static List<String> markers(JsonNode profile, long tid) {
        JsonNode categories = profile.get("meta").get("categories");
        JsonNode strings = profile.get("shared").get("stringArray");
        JsonNode markers = thread(profile, tid).get("markers");
        List<String> list = new ArrayList<>();
        for (int m = 0; m < markers.get("length").asInt(); m++) {
            double start = markers.get("startTime").get(m).asDouble();
            double end = markers.get("endTime").get(m).asDouble();
            assertThat(markers.get("data").get(m).get("duration").asDouble()).isEqualTo(end - start);
            assertThat(markers.get("data").get(m).get("type").asText())
                    .isEqualTo(strings.get(markers.get("name").get(m).asInt()).asText().replace(" ", ""));
            list.add(categories.get(markers.get("category").get(m).asInt()).get("name").asText() + " "
                    + strings.get(markers.get("name").get(m).asInt()).asText()
                    + " " + (long) start + "-" + (long) end);
        }
        return list;
    }

    private static void assertPrefixesEndAtARoot(JsonNode stackTable, int stack) {
        Set<Integer> seen = new HashSet<>();
        for (JsonNode s = JSON.getNodeFactory().numberNode(stack); !s.isNull();
                s = stackTable.get("prefix").get(s.asInt())) {
            assertThat(s.asInt()).isBetween(0, stackTable.get("length").asInt() - 1);
            assertThat(seen.add(s.asInt())).as("stack %d's prefixes loop at %d", stack, s.asInt()).isTrue();
        }
    }

    private static JsonNode thread(JsonNode profile, long tid) {
        for (JsonNode t : profile.get("threads")) {
            if (t.get("tid").asLong() == tid) {
                return t;
            }
        }
        throw new AssertionError("no thread " + tid);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    static JsonNode write(Profile profile) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new GeckoWriter().write(profile, out);
        return JSON.readTree(out.toByteArray());
    }
}
