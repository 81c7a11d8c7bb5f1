package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ChromiumPage;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --heatmap} of a real target, looked at in headless Chromium: the sampled files are listed by
 * samples with the script first, its source is read through the target's root and shaded by samples
 * (the hottest line darkest), and a click on a function jumps to its lines.
 */
@Tag("targets")
class HeatmapBrowserTest {

    @Test
    void showsTheSourceShadedBySamplesAndJumpsToAFunction() throws Exception {
        ChromiumPage.provision();
        TargetInterpreter python = TargetInterpreters.all().stream().filter(t -> t.name().equals("debian-3.15")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no debian-3.15 among the targets"));
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-heatmap-")) {
            String script = dir.copyResource("targets/binary_capture.py");
            Process target = new ProcessBuilder(python.scriptCommand(script, List.of()))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            Path page = dir.host("heatmap.html");
            try {
                ParkedTarget.awaitReady(target, System.nanoTime() + ParkedTarget.READY_TIMEOUT.toNanos());
                RemoraCli run = RemoraCli.run("attach", "--heatmap", "-a", "-d", "1", "-o", page, target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
            } finally {
                ParkedTarget.kill(target);
            }
            try (ChromiumPage chromium = ChromiumPage.open(page)) {
                chromium.waitUntil("document.body && document.body.dataset.ready === 'true'", Duration.ofSeconds(30));
                List<String> files = texts(chromium.evaluate("[...document.querySelectorAll('#files .file')].map(a => a.textContent)"));
                assertThat(files.getFirst()).as("the script first: %s", files).contains(script);
                assertThat(files).anyMatch(f -> f.contains("threading.py"));
                assertThat(chromium.evaluate("document.getElementById('meta').textContent").asText())
                        .containsPattern("samples in [\\d,]+ ticks · [\\d,]+ errors?");
                // The source came through the target's root: the script's own lines, not "not available".
                String hottest = chromium.evaluate("""
                        (() => { const rows = [...document.querySelectorAll('#source tbody tr')];
                          const top = rows.reduce((a, b) => Number(b.dataset.total) > Number(a.dataset.total) ? b : a);
                          return top.querySelector('.code').textContent; })()""").asText();
                assertThat(hottest).as("the hottest line").containsAnyOf("outer()", "time.sleep(0.0005)");
                assertThat(chromium.evaluate("document.querySelector('#L18 .code').textContent").asText())
                        .isEqualTo("        total += middle(i)");
                double hot = alpha(chromium, 18);
                double cold = alpha(chromium, 19);
                assertThat(hot).as("line 18 shaded darker than line 19").isGreaterThan(cold);

                chromium.evaluate("[...document.querySelectorAll('#functions a')].find(a => a.textContent.startsWith('leaf_é')).click()");
                String jumped = chromium.evaluate("document.querySelector('#source tr.jumped .code').textContent").asText();
                assertThat(jumped).containsAnyOf("def leaf_é(n):", "return n + 1");
                chromium.screenshot(Path.of("target", "heatmap.png"));
            }
        }
    }

    /** The alpha of a line's shading (0 when unshaded). */
    private static double alpha(ChromiumPage chromium, int line) {
        JsonNode rgba = chromium.evaluate("(getComputedStyle(document.querySelector('#L" + line
                + " .code')).backgroundColor.match(/[\\d.]+/g) || []).map(Number)");
        return rgba.size() == 4 ? rgba.get(3).asDouble() : 0;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }
}
