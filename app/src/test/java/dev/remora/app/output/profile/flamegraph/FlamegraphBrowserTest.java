package dev.remora.app.output.profile.flamegraph;

import dev.remora.app.output.profile.Python;
import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.output.json.JsonEscaping;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.app.testing.ChromiumPage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The written page in a real browser: it draws frames and zooms, searches, filters by thread and
 * inverts when used as a person would (clicks and typing, as DOM events). Screenshots of each state
 * land in target/flamegraph-browser/.
 */
@Tag("targets")
class FlamegraphBrowserTest {

    private static final Path DIR = Path.of("target", "flamegraph-browser");
    private static final Path PAGE = DIR.resolve("two-threads.html");
    /** Helpers the checks below run in the page; boxes are found by the start of their label. */
    private static final String HELPERS = """
            window.t = {
              frames: () => [...document.querySelectorAll('#chart .frame')],
              find: prefix => t.frames().filter(f => f.textContent.startsWith(prefix)),
              one: prefix => { const f = t.find(prefix); if (f.length !== 1) throw new Error(prefix + ': ' + f.length); return f[0]; },
              box: f => ({ text: f.textContent, left: f.offsetLeft, top: f.offsetTop, width: f.offsetWidth,
                           value: Number(f.dataset.value), classes: f.className }),
              chartWidth: () => document.getElementById('chart').clientWidth,
              text: id => document.getElementById(id).textContent,
              type: (id, value) => { const e = document.getElementById(id); e.value = value;
                                     e.dispatchEvent(new Event('input', { bubbles: true })); },
              choose: (id, value) => { const e = document.getElementById(id); e.value = value;
                                       e.dispatchEvent(new Event('change', { bubbles: true })); },
            };
            true""";

    /** Pixels from one level of frames to the next, as the page draws them. */
    private static final int ROW = 18;

    private ChromiumPage page;
    private String screenshotName;

    @BeforeAll
    static void writePage() throws IOException {
        ChromiumPage.provision();
        Files.createDirectories(DIR);
        try (OutputStream out = Files.newOutputStream(PAGE)) {
            new FlamegraphWriter().write(FlamegraphTestProfiles.twoThreads(), out);
        }
    }

    @BeforeEach
    void open(TestInfo test) {
        screenshotName = test.getTestMethod().orElseThrow().getName() + ".png";
        page = ChromiumPage.open(PAGE);
        page.waitUntil("document.body && document.body.dataset.ready === 'true'", Duration.ofSeconds(30));
        page.evaluate(HELPERS);
    }

    @AfterEach
    void close() {
        try {
            page.screenshot(DIR.resolve(screenshotName));
        } finally {
            page.close();
        }
    }

    @Test
    void drawsEveryFrameUnderAFullWidthRoot() {
        JsonNode root = eval("t.box(t.one('all ('))");
        assertThat(root.get("text").asText()).isEqualTo("all (150 samples)");
        assertThat(root.get("width").asInt()).isEqualTo(eval("t.chartWidth()").asInt());
        assertThat(eval("t.frames().length").asInt()).isEqualTo(12);
        assertThat(eval("t.box(t.one('compute ('))").get("text").asText()).isEqualTo("compute (calc.py:5)");
        // The hostile name shows as text; it neither broke the page nor became markup.
        assertThat(eval("t.find(" + jsString(FlamegraphTestProfiles.HOSTILE) + ").length").asInt()).isEqualTo(1);
        assertThat(eval("document.querySelectorAll('script').length").asInt()).isEqualTo(2);
        assertThat(eval("t.box(t.one('<native>'))").get("classes").asText()).contains("pseudo");
        assertThat(eval("t.text('meta')").asText()).contains("PID:4242", "Python:3.15.0a1", "Mode:wall",
                "Samples:150", "Error rate:1.32%", "Errors:2 (2 walk failed)");
    }

    @Test
    void tooltipShowsTheFrame() {
        eval("""
                (() => { const f = t.one('compute ('), r = f.getBoundingClientRect();
                  f.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: r.left + 5, clientY: r.top + 5 }));
                  return true; })()""");

        assertThat(eval("document.getElementById('tooltip').hidden").asBoolean()).isFalse();
        assertThat(eval("[...document.querySelectorAll('#tooltip div')].map(d => d.textContent)"))
                .extracting(JsonNode::asText)
                .containsExactly("compute", "/srv/app/calc.py:5", "Samples: 70 (46.67%)", "Self: 10 (6.67%)");
    }

    @Test
    void clickZoomsIntoAFrameAndResetZoomsOut() {
        int width = eval("t.chartWidth()").asInt();
        assertThat(eval("t.box(t.one('compute ('))").get("width").asInt()).isLessThan(width / 2);

        eval("t.one('compute (').click(), true");

        JsonNode compute = eval("t.box(t.one('compute ('))");
        assertThat(compute.get("width").asInt()).isEqualTo(width);
        assertThat(compute.get("left").asInt()).isZero();
        assertThat(eval("t.box(t.one('hot_leaf ('))").get("width").asDouble()).isCloseTo(width * 60 / 70.0, within(1.0));
        assertThat(eval("t.box(t.one('App.run ('))").get("classes").asText()).contains("ancestor");
        assertThat(eval("t.find('io_wait').length").asInt()).isZero();
        assertThat(eval("t.text('breadcrumb')").asText()).isEqualTo("all›main (app.py:10)›App.run (app.py:20)›compute (calc.py:5)");
        page.screenshot(DIR.resolve("zoomed.png"));

        eval("document.getElementById('reset').click(), true");

        assertThat(eval("t.find('io_wait').length").asInt()).isEqualTo(1);
        assertThat(eval("t.box(t.one('compute ('))").get("width").asInt()).isLessThan(width / 2);
        assertThat(eval("t.text('breadcrumb')").asText()).isEqualTo("all");
    }

    @Test
    void clickOnTheRootZoomsOut() {
        eval("t.one('loop (').click(), true");
        assertThat(eval("t.find('main (').length").asInt()).isZero();

        eval("t.one('all (').click(), true");

        assertThat(eval("t.find('main (').length").asInt()).isEqualTo(1);
    }

    @Test
    void searchHighlightsMatchesAndShowsTheirShare() {
        eval("t.type('search', 'HOT_leaf'), true");

        assertThat(eval("t.frames().filter(f => f.classList.contains('match')).map(f => f.textContent)"))
                .extracting(JsonNode::asText)
                .containsExactly("hot_leaf (calc.py:50)", "hot_leaf (calc.py:50)");
        assertThat(eval("t.text('matched')").asText()).isEqualTo("Matched: 60.00% (90 samples)");
        page.screenshot(DIR.resolve("search.png"));

        eval("t.type('search', 'worker.py'), true");
        assertThat(eval("t.text('matched')").asText()).isEqualTo("Matched: 33.33% (50 samples)");

        eval("t.type('search', ''), true");
        assertThat(eval("document.querySelectorAll('.frame.match').length").asInt()).isZero();
        assertThat(eval("t.text('matched')").asText()).isEmpty();
    }

    @Test
    void threadFilterRecomputesTotals() {
        assertThat(eval("[...document.getElementById('thread').options].map(o => o.textContent)"))
                .extracting(JsonNode::asText)
                .containsExactly("All threads", "Thread 1001 [MainThread]", "Thread 1002 [worker \"<b>1</b>\"]");

        eval("t.choose('thread', '1'), true");

        assertThat(eval("t.box(t.one('all ('))").get("value").asInt()).isEqualTo(50);
        assertThat(eval("t.box(t.one('all ('))").get("text").asText()).isEqualTo("all (50 samples)");
        assertThat(eval("t.find('main (').length").asInt()).isZero();
        assertThat(eval("t.box(t.one('hot_leaf ('))").get("value").asInt()).isEqualTo(30);

        eval("t.choose('thread', '0'), true");

        assertThat(eval("t.box(t.one('all ('))").get("value").asInt()).isEqualTo(100);
        assertThat(eval("t.box(t.one('hot_leaf ('))").get("value").asInt()).isEqualTo(60);
        assertThat(eval("t.find('loop (').length").asInt()).isZero();
    }

    @Test
    void zoomStaysOnTheSameFramesWhileTheThreadHasThem() {
        eval("t.one('main (').click(), true");
        eval("t.choose('thread', '0'), true");

        assertThat(eval("t.box(t.one('main ('))").get("width").asInt()).isEqualTo(eval("t.chartWidth()").asInt());
        assertThat(eval("t.box(t.one('main ('))").get("value").asInt()).isEqualTo(100);

        eval("t.choose('thread', '1'), true");

        assertThat(eval("t.text('breadcrumb')").asText()).isEqualTo("all");
        assertThat(eval("t.box(t.one('all ('))").get("value").asInt()).isEqualTo(50);
    }

    @Test
    void invertedViewPutsTheFunctionsSamplesEndedInOnTop() {
        assertThat(eval("document.getElementById('invert').click(), document.getElementById('invert').checked").asBoolean())
                .isTrue();

        List<String> top = texts("t.frames().filter(f => f.offsetTop === " + ROW + ")");
        assertThat(top).containsExactly(FlamegraphTestProfiles.HOSTILE + " (x.py:1)",
                "callback (worker.py:30)", "compute (calc.py:5)", "hot_leaf (calc.py:50)", "io_wait (net.py:7)");
        assertThat(eval("t.box(t.one('hot_leaf ('))").get("value").asInt()).isEqualTo(90);
        // Below hot_leaf: who called it, per caller.
        List<String> callers = texts("t.frames().filter(f => f.offsetTop === " + 2 * ROW
                + " && f.offsetLeft >= t.one('hot_leaf (').offsetLeft"
                + " && f.offsetLeft < t.one('hot_leaf (').offsetLeft + t.one('hot_leaf (').offsetWidth)");
        assertThat(callers).containsExactly("compute (calc.py:5)", "loop (worker.py:9)");
        assertThat(eval("t.box(t.one('all ('))").get("value").asInt()).isEqualTo(150);
    }

    private JsonNode eval(String expression) {
        return page.evaluate(expression);
    }

    /** Labels of some frames, left to right. */
    private List<String> texts(String framesExpression) {
        List<String> texts = new ArrayList<>();
        eval(framesExpression + ".sort((a, b) => a.offsetLeft - b.offsetLeft).map(f => f.textContent)")
                .forEach(n -> texts.add(n.asText()));
        return texts;
    }

    /** A JavaScript string literal (JSON's syntax is a subset of it). */
    private static String jsString(String s) {
        return JsonWriter.text(JsonEscaping.HTML_SCRIPT, json -> json.value(s));
    }
}
