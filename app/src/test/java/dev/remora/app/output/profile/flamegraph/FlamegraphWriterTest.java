package dev.remora.app.output.profile.flamegraph;

import dev.remora.app.output.profile.Python;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.Profile;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The page's embedded data: parseable, complete, and safe whatever the target's names contain. */
class FlamegraphWriterTest {

    private static final Pattern DATA = Pattern.compile(
            "<script type=\"application/json\" id=\"profile-data\">(.*?)</script>", Pattern.DOTALL);
    private static final ObjectMapper JSON = new ObjectMapper();

    static String html(Profile profile) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new FlamegraphWriter().write(profile, out);
        return out.toString(StandardCharsets.UTF_8);
    }

    static JsonNode data(String html) throws IOException {
        Matcher m = DATA.matcher(html);
        assertThat(m.find()).as("data element").isTrue();
        return JSON.readTree(m.group(1));
    }

    @Test
    void treeTotalsEqualTheSamplesOfEachThread() throws IOException {
        Profile profile = FlamegraphTestProfiles.random(3000, 4, 1);
        JsonNode data = data(html(profile));
        JsonNode nodes = data.get("nodes");

        Map<Integer, Long> expected = new HashMap<>();
        for (int s = 0; s < profile.samples().size(); s++) {
            expected.merge(profile.tree().threadIndex(profile.samples().node(s)), 1L, Long::sum);
        }
        assertThat(nodes.get(0).get(0).asInt()).isEqualTo(-1);
        assertThat(nodes.get(0).get(4).asLong()).isEqualTo(profile.samples().size());
        assertThat(perThread(nodes.get(0), 1)).isEqualTo(expected);
        assertThat(data.get("meta").get("samples").asInt()).isEqualTo(profile.samples().size());

        // Every node adds up: its total is its own samples plus its children's, overall and per thread.
        List<List<Integer>> children = children(nodes);
        Map<Integer, Long> selfPerThread = new HashMap<>();
        for (int i = 0; i < nodes.size(); i++) {
            JsonNode node = nodes.get(i);
            assertThat(node.get(0).asInt()).as("parent of %d comes first", i).isLessThan(i);
            long childTotals = children.get(i).stream().mapToLong(c -> nodes.get(c).get(4).asLong()).sum();
            assertThat(node.get(4).asLong()).as("total of node %d", i).isEqualTo(node.get(5).asLong() + childTotals);
            Map<Integer, Long> expectedTotals = new HashMap<>(perThread(node, 2));
            for (int c : children.get(i)) {
                perThread(nodes.get(c), 1).forEach((t, v) -> expectedTotals.merge(t, v, Long::sum));
            }
            assertThat(perThread(node, 1)).as("per-thread totals of node %d", i).isEqualTo(expectedTotals);
            assertThat(node.get(4).asLong()).isEqualTo(perThread(node, 1).values().stream().mapToLong(v -> v).sum());
            perThread(node, 2).forEach((t, v) -> selfPerThread.merge(t, v, Long::sum));
        }
        assertThat(selfPerThread).isEqualTo(expected);
    }

    @Test
    void quotesClosingTagsAndNonAsciiSurvive() throws IOException {
        Profile profile = FlamegraphTestProfiles.twoThreads();
        String html = html(profile);
        JsonNode data = data(html);

        assertThat(strings(data)).contains(FlamegraphTestProfiles.HOSTILE, "/srv/app/we\"ird <!-- dir>/x.py");
        assertThat(data.get("threads").get(1).get("name").asText()).isEqualTo("worker \"<b>1</b>\"");
        // Only the page's own two script elements close; the names cannot open or close any.
        assertThat(count(html, "</script")).isEqualTo(2);
        assertThat(count(html, "<script")).isEqualTo(2);
        assertThat(html).doesNotContain("<!--", "\u2028");
        assertThat(html).contains("naïve_函数_😀");
    }

    @Test
    void unpairedSurrogatesSurviveAsEscapes() throws IOException {
        String broken = "half\uD800 and \uDC00half";
        String html = html(FlamegraphTestProfiles.start("3.15.0").sample(1, 1, FlamegraphTestProfiles.frame(broken, "f.py", 1))
                .finish());

        assertThat(html).contains("half\\ud800 and \\udc00half");
        assertThat(strings(data(html))).contains(broken);
    }

    @Test
    void titleIsEscapedForHtml() throws IOException {
        String html = html(FlamegraphTestProfiles.start("3.15<b>\"&").sample(1, 1, FlamegraphTestProfiles.frame("f", "f.py", 1))
                .finish());

        assertThat(html).contains("<title>Flamegraph of pid 4242, Python 3.15&lt;b&gt;&quot;&amp;</title>");
        assertThat(data(html).get("meta").get("pythonVersion").asText()).isEqualTo("3.15<b>\"&");
    }

    @Test
    void framesDifferingOnlyInColumnsMergeAndThreadsShareNodes() throws IOException {
        FrameInfo outer = FlamegraphTestProfiles.frame("outer", "a.py", 1);
        FrameInfo call = new FrameInfo("inner", "a.py", new SourceLocation(7, 7, 0, 5));
        FrameInfo sameLineOtherColumn = new FrameInfo("inner", "a.py", new SourceLocation(7, 8, 10, 3));
        Profile profile = FlamegraphTestProfiles.start("3.15.0")
                .sample(1, 2, outer, call)
                .sample(1, 3, outer, sameLineOtherColumn)
                .sample(2, 4, outer, call)
                .finish();

        JsonNode nodes = data(html(profile)).get("nodes");
        List<String> strings = strings(data(html(profile)));

        assertThat(nodes).hasSize(3);
        JsonNode inner = nodes.get(2);
        assertThat(strings.get(inner.get(1).asInt())).isEqualTo("inner");
        assertThat(inner.get(3).asInt()).isEqualTo(7);
        assertThat(inner.get(4).asLong()).isEqualTo(9);
        assertThat(perThread(inner, 1)).isEqualTo(Map.of(0, 5L, 1, 4L));
        assertThat(perThread(inner, 2)).isEqualTo(Map.of(0, 5L, 1, 4L));
    }

    @Test
    void pseudoFramesAndAbsentLinesAreKept() throws IOException {
        Profile profile = FlamegraphTestProfiles.start("3.15.0")
                .sample(1, 1, FlamegraphTestProfiles.frame("outer", "a.py", 1), PseudoFrames.NATIVE,
                        new FrameInfo("<genexpr>", "a.py", SourceLocation.NONE))
                .finish();

        JsonNode data = data(html(profile));
        List<String> strings = strings(data);
        JsonNode nativeNode = data.get("nodes").get(2);
        JsonNode noLine = data.get("nodes").get(3);

        assertThat(strings.get(nativeNode.get(1).asInt())).isEqualTo("<native>");
        assertThat(strings.get(nativeNode.get(2).asInt())).isEqualTo("~");
        assertThat(nativeNode.get(3).asInt()).isEqualTo(-1);
        assertThat(strings.get(noLine.get(1).asInt())).isEqualTo("<genexpr>");
        assertThat(noLine.get(3).asInt()).isEqualTo(-1);
    }

    @Test
    void emptyProfileWritesAPageWithARootOnly() throws IOException {
        JsonNode data = data(html(FlamegraphTestProfiles.start("3.15.0").finish()));

        assertThat(data.get("nodes")).hasSize(1);
        assertThat(data.get("nodes").get(0).get(4).asLong()).isZero();
        assertThat(data.get("meta").get("errorRate").asDouble()).isEqualTo(1.0);
        assertThat(data.get("meta").get("errors").asLong()).isEqualTo(2);
        assertThat(data.get("meta").get("errorReasons").get("walk failed").asLong()).isEqualTo(2);
    }

    @Test
    void pageLoadsNothingFromOutside() throws IOException {
        String html = html(FlamegraphTestProfiles.twoThreads()).toLowerCase();

        assertThat(html).doesNotContain("http://", "https://", " src=", " href=", "@import", "url(");
        assertThat(html).contains("content-security-policy");
    }

    @Test
    void aThousandNodeProfileStaysSmall() throws IOException {
        Profile profile = FlamegraphTestProfiles.random(1000, 4, 2);
        String html = html(profile);
        int bytes = html.getBytes(StandardCharsets.UTF_8).length;
        int nodes = data(html).get("nodes").size();
        Path out = Path.of("target", "flamegraph-1000-nodes.html");
        Files.createDirectories(out.getParent());
        Files.writeString(out, html);
        System.out.printf("flamegraph: %d merged nodes (%d call-tree nodes, %d samples) -> %d bytes%n",
                nodes, profile.tree().size(), profile.samples().size(), bytes);

        assertThat(nodes).isGreaterThan(900);
        assertThat(bytes).isLessThan(100_000);
    }

    /** Thread index to the value at {@code field} (1 total, 2 self) of a node's per-thread list. */
    private static Map<Integer, Long> perThread(JsonNode node, int field) {
        Map<Integer, Long> values = new HashMap<>();
        JsonNode flat = node.get(6);
        for (int i = 0; i < flat.size(); i += 3) {
            values.put(flat.get(i).asInt(), flat.get(i + field).asLong());
        }
        return values;
    }

    private static List<List<Integer>> children(JsonNode nodes) {
        List<List<Integer>> children = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            children.add(new ArrayList<>());
            int parent = nodes.get(i).get(0).asInt();
            if (parent >= 0) {
                children.get(parent).add(i);
            }
        }
        return children;
    }

    private static List<String> strings(JsonNode data) {
        List<String> strings = new ArrayList<>();
        data.get("strings").forEach(s -> strings.add(s.asText()));
        return strings;
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int i = s.indexOf(part); i >= 0; i = s.indexOf(part, i + 1)) {
            n++;
        }
        return n;
    }
}
