package dev.remora.app.output.profile.pprof;

import dev.remora.app.output.profile.ProfileFixture;
import dev.remora.app.output.profile.Python;
import dev.remora.app.output.profile.SampleProfile;
import static org.assertj.core.api.Assertions.assertThat;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.Profile;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/** Reads what {@link PprofWriter} wrote back with {@code go tool pprof}, the format's reference reader. */
@Tag("targets") // go tool pprof, which scripts/provision-go.sh installs
class PprofWriterTest {

    private static final Pattern SAMPLE = Pattern.compile("^\\s+(\\d+)\\s+(\\d+): ([\\d ]+)$");
    private static final Pattern LABEL = Pattern.compile("^\\s+(\\w+):\\[(.*)]$");
    private static final Pattern LOCATION = Pattern.compile("^\\s+(\\d+): 0x0 M=\\d+ (.*) (\\S*):(\\d+) s=0\\(\\)$");
    private static final Pattern TOP_ROW =
            Pattern.compile("^\\s+(\\d+)\\s+[\\d.]+%\\s+[\\d.]+%\\s+(\\d+)\\s+[\\d.]+%\\s+(.*)$");
    private static final Pattern TAG_ROW = Pattern.compile("^\\s+([\\d.]+) \\([\\d.]+%\\): (.*)$");

    @TempDir
    static Path scratch;
    private static GoPprof go;
    private static Path file;

    @BeforeAll
    static void writeAndProvision() throws IOException {
        go = GoPprof.provision(scratch);
        file = scratch.resolve("profile.pb.gz");
        try (OutputStream out = Files.newOutputStream(file)) {
            new PprofWriter().write(SampleProfile.build(), out);
        }
    }

    @Test
    void rawSamplesAreTheProfilesStacksWithTheirThreads() {
        String raw = go.pprof("-raw", file.toString());

        assertThat(raw).contains("PeriodType: wall nanoseconds\n", "Period: 10000000\n",
                "samples/count wall/nanoseconds\n");
        Map<Integer, String> functionOf = new HashMap<>();
        for (String line : section(raw, "Locations", "Mappings")) {
            Matcher m = LOCATION.matcher(line);
            assertThat(m.matches()).as("location line %s", line).isTrue();
            functionOf.put(Integer.parseInt(m.group(1)), m.group(2));
        }
        List<RawSample> samples = new ArrayList<>();
        for (String line : section(raw, "samples/count wall/nanoseconds", "Locations")) {
            Matcher sample = SAMPLE.matcher(line);
            Matcher label = LABEL.matcher(line);
            if (sample.matches()) {
                List<String> names = new ArrayList<>();
                for (String id : sample.group(3).trim().split(" ")) {
                    names.addFirst(functionOf.get(Integer.parseInt(id)));
                }
                samples.add(new RawSample(String.join(";", names), Long.parseLong(sample.group(1)),
                        Long.parseLong(sample.group(2)), new TreeMap<>()));
            } else {
                assertThat(label.matches()).as("sample line %s", line).isTrue();
                samples.getLast().labels().put(label.group(1), label.group(2));
            }
        }

        Map<String, Long> counts = new LinkedHashMap<>();
        for (RawSample sample : samples) {
            assertThat(sample.wallNanos()).isEqualTo(sample.count() * SampleProfile.INTERVAL);
            String tid = sample.labels().get("thread_id");
            assertThat(sample.labels()).isEqualTo(switch (Integer.parseInt(tid)) {
                case (int) SampleProfile.MAIN -> Map.of("thread_id", tid, "thread_name", "MainThread");
                case (int) SampleProfile.WORKER -> Map.of("thread_id", tid, "thread_name", "worker \"1\"");
                default -> Map.of("thread_id", tid);
            });
            assertThat(counts.put(tid + ";" + sample.stack(), sample.count()))
                    .as("one sample per thread and stack").isNull();
        }
        assertThat(counts).isEqualTo(SampleProfile.expectedCounts());
    }

    private record RawSample(String stack, long count, long wallNanos, Map<String, String> labels) {}

    @Test
    void aMergedProcessTreeLabelsEachSampleWithItsProcess() throws IOException {
        Path merged = scratch.resolve("merged.pb.gz");
        try (OutputStream out = Files.newOutputStream(merged)) {
            new PprofWriter().write(ProfileFixture.mergedTree(), out);
        }
        List<String> labels = section(go.pprof("-raw", merged.toString()), "samples/count wall/nanoseconds", "Locations")
                .stream().map(String::strip).filter(line -> line.startsWith("pid:")).toList();
        assertThat(labels).containsExactlyInAnyOrder("pid:[100] thread_id:[7]", "pid:[200] thread_id:[8]");
    }

    @Test
    void cFramesLiveInTheirLibrarysMapping() throws IOException {
        Path withC = scratch.resolve("native.pb.gz");
        try (OutputStream out = Files.newOutputStream(withC)) {
            new PprofWriter().write(new ProfileFixture().sample(7, FrameInfo.ofNative("qsort_r", "/usr/lib/libc.so.6", 0x3f8a0),
                    FrameInfo.ofNative("ffi_call", "/usr/lib/libffi.so.8", 0x7230), ProfileFixture.frame("sort", "/a/app.py", 3)).finish(), out);
        }
        String raw = go.pprof("-raw", withC.toString());
        assertThat(raw).contains("Mappings");
        // Each function at its address in its library's own address space, which starts at 0 and names its functions.
        assertThat(section(raw, "Locations", "Mappings")).anyMatch(l -> l.strip().matches("\\d+: 0x3f8a0 M=\\d+ qsort_r .*"))
                .anyMatch(l -> l.strip().matches("\\d+: 0x7230 M=\\d+ ffi_call .*"));
        assertThat(raw.substring(raw.indexOf("Mappings"))).contains("0x0/0x800000000000/0x0 /usr/lib/libc.so.6  [FN]",
                "0x0/0x800000000000/0x0 /usr/lib/libffi.so.8  [FN]");
        assertThat(go.pprof("-top", withC.toString())).contains("qsort_r", "ffi_call", "sort");
    }

    @Test
    void locationsKeepPythonNamesFilesAndLines() {
        String raw = go.pprof("-raw", file.toString());

        Set<String> locations = new LinkedHashSet<>();
        for (String line : section(raw, "Locations", "Mappings")) {
            Matcher m = LOCATION.matcher(line);
            assertThat(m.matches()).as("location line %s", line).isTrue();
            locations.add(m.group(2) + " " + m.group(3) + ":" + m.group(4));
        }
        // One location per distinct frame that a sample used; the dropped stack's frame is in none.
        assertThat(locations).containsExactlyInAnyOrder(
                "main /app/main.py:10",
                "Worker.compute /app/work.py:20",
                "Worker.compute /app/work.py:21",
                "inner /app/work.py:0",
                "<GC> :0",
                "<native> :0",
                SampleProfile.ODD_NAME.function() + " " + SampleProfile.ODD_NAME.file() + ":3");
    }

    @Test
    void topCountsEachFunctionsSamplesExactly() {
        String top = go.pprof("-top", "-nodecount=100", "-sample_index=samples", file.toString());

        assertThat(top).contains("Type: samples\n", "Showing nodes accounting for 14, 100% of 14 total\n");
        Map<String, String> rows = new TreeMap<>();
        for (String line : top.lines().toList()) {
            Matcher m = TOP_ROW.matcher(line);
            if (m.matches()) {
                rows.put(m.group(3), "flat " + m.group(1) + " cum " + m.group(2));
            }
        }
        assertThat(rows).isEqualTo(expectedTop());
    }

    @Test
    void topReportsWallTimeByDefault() {
        String top = go.pprof("-top", "-nodecount=100", file.toString());

        assertThat(top).contains("Type: wall\n", "Showing nodes accounting for 140ms, 100% of 140ms total\n")
                .containsPattern("\\s50ms\\s+35\\.71%\\s+35\\.71%\\s+70ms\\s+50\\.00%\\s+Worker\\.compute\n");
    }

    @Test
    void tagsCountSamplesPerThread() {
        String tags = go.pprof("-tags", "-sample_index=samples", file.toString());

        assertThat(tagRows(tags, "thread_id")).containsExactlyInAnyOrderEntriesOf(Map.of(
                "1001", "6.0", "1002", "6.0", "1003", "2.0"));
        assertThat(tagRows(tags, "thread_name")).containsExactlyInAnyOrderEntriesOf(Map.of(
                "MainThread", "6.0", "worker \"1\"", "6.0"));
    }

    @Test
    void commentsSayWhatWasProfiled() {
        assertThat(go.pprof("-comments", file.toString())).contains(
                "remora profile of pid 4242, Python 3.15.2, vmreadv backend, wall mode",
                "sampling: 6 ticks, 14 samples, 1 errors (1 unreadable memory), 0 ticks missed");
    }

    @Test
    void leavesTheCallersStreamOpenAfterOneCompleteGzipMember() throws IOException {
        Profile profile = SampleProfile.build();
        ByteArrayOutputStream out = new ByteArrayOutputStream() {
            @Override
            public void close() {
                throw new AssertionError("the writer closed the caller's stream");
            }
        };

        new PprofWriter().write(profile, out);

        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(out.toByteArray()))) {
            assertThat(in.readAllBytes()).isNotEmpty();
        }
    }

    /** Per function: samples where it is the leaf (flat) and samples it is on the stack of (cum). */
    private static Map<String, String> expectedTop() {
        Map<String, long[]> counts = new TreeMap<>();
        for (SampleProfile.Walk walk : SampleProfile.WALKS) {
            counts.computeIfAbsent(walk.frames().getFirst().function(), f -> new long[2])[0]++;
            walk.frames().stream().map(FrameInfo::function).distinct()
                    .forEach(f -> counts.computeIfAbsent(f, x -> new long[2])[1]++);
        }
        Map<String, String> rows = new TreeMap<>();
        counts.forEach((f, c) -> rows.put(f, "flat " + c[0] + " cum " + c[1]));
        return rows;
    }

    private static Map<String, String> tagRows(String tags, String key) {
        List<String> lines = tags.lines().toList();
        int start = lines.indexOf(lines.stream().filter(l -> l.startsWith(" " + key + ": Total ")).findFirst()
                .orElseThrow(() -> new AssertionError("no " + key + " in\n" + tags)));
        Map<String, String> rows = new HashMap<>();
        for (String line : lines.subList(start + 1, lines.size())) {
            Matcher m = TAG_ROW.matcher(line);
            if (!m.matches()) {
                break;
            }
            rows.put(m.group(2), m.group(1));
        }
        return rows;
    }

    /** The lines strictly between the line equal to {@code from} and the line equal to {@code to}. */
    private static List<String> section(String text, String from, String to) {
        List<String> lines = text.lines().toList();
        int start = lines.indexOf(from);
        int end = lines.indexOf(to);
        assertThat(start).as("'%s' in\n%s", from, text).isNotNegative();
        assertThat(end).as("'%s' in\n%s", to, text).isGreaterThan(start);
        return lines.subList(start + 1, end);
    }
}
