package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ChromiumPage;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --diff-flamegraph}: two real profiles of a target whose hot function changes between runs
 * (alpha three times as often as beta, then the other way round), the second drawn against the first
 * (a binary capture, or collapsed stacks) and looked at in headless Chromium: beta grew and is red,
 * alpha shrank and is blue, and each tooltip gives both shares.
 */
@Tag("targets")
class DiffFlamegraphTest {

    @ParameterizedTest(name = "baseline --{0}")
    @ValueSource(strings = {"binary", "collapsed"})
    void theFunctionThatGrewIsRedAndTheOneThatShrankBlue(String baselineFormat) throws Exception {
        ChromiumPage.provision();
        TargetInterpreter python = TargetInterpreters.all().stream().filter(t -> t.name().equals("debian-3.15")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no debian-3.15 among the targets"));
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-diff-")) {
            String script = dir.copyResource("targets/hot_switch.py");
            Path baseline = dir.host("baseline." + baselineFormat);
            profile(python, script, "alpha", "--" + baselineFormat, "-o", baseline);
            Path page = dir.host("diff.html");
            profile(python, script, "beta", "--diff-flamegraph", baseline, "-o", page);
            try (ChromiumPage chromium = ChromiumPage.open(page)) {
                chromium.waitUntil("document.body && document.body.dataset.ready === 'true'", Duration.ofSeconds(30));
                chromium.evaluate("""
                        window.colour = prefix => {
                          const f = [...document.querySelectorAll('#chart .frame')].filter(e => e.textContent.startsWith(prefix));
                          if (f.length !== 1) throw new Error(prefix + ': ' + f.length);
                          return getComputedStyle(f[0]).backgroundColor.match(/\\d+/g).map(Number);
                        };
                        window.tip = prefix => {
                          const f = [...document.querySelectorAll('#chart .frame')].find(e => e.textContent.startsWith(prefix));
                          const r = f.getBoundingClientRect();
                          f.dispatchEvent(new MouseEvent('mousemove', { bubbles: true, clientX: r.left + 2, clientY: r.top + 2 }));
                          return [...document.querySelectorAll('#tooltip div')].map(d => d.textContent);
                        };
                        true""");
                JsonNode beta = chromium.evaluate("colour('beta (')");
                JsonNode alpha = chromium.evaluate("colour('alpha (')");
                assertThat(beta.get(0).asInt()).as("beta grew: red %s", beta).isGreaterThan(beta.get(2).asInt() + 40);
                assertThat(alpha.get(2).asInt()).as("alpha shrank: blue %s", alpha).isGreaterThan(alpha.get(0).asInt() + 40);
                // beta does a quarter of the work, then three quarters; one second at 1 kHz of a loop
                // that turns every 100 µs puts either share up to 6 points off.
                String tip = chromium.evaluate("tip('beta (')").toString();
                Matcher shares = Pattern.compile("Baseline (\\d+\\.\\d+)%, now (\\d+\\.\\d+)% \\(\\+\\d").matcher(tip);
                assertThat(shares.find()).as(tip).isTrue();
                assertThat(Double.parseDouble(shares.group(1))).as(tip).isBetween(15.0, 35.0);
                assertThat(Double.parseDouble(shares.group(2))).as(tip).isBetween(65.0, 85.0);
                assertThat(chromium.evaluate("document.getElementById('meta').textContent").asText())
                        .contains("Compared with:baseline." + baselineFormat);
                chromium.screenshot(Path.of("target", "diff-flamegraph-" + baselineFormat + ".png"));
            }
        }
    }

    /** Samples hot_switch.py with HOT busiest for a second, writing what {@code options} say. */
    private static void profile(TargetInterpreter python, String script, String hot, Object... options) throws Exception {
        Process target = new ProcessBuilder(python.scriptCommand(script, List.of(hot)))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            ParkedTarget.awaitReady(target, System.nanoTime() + ParkedTarget.READY_TIMEOUT.toNanos());
            List<Object> args = new java.util.ArrayList<>(List.of("attach", "-d", "1"));
            args.addAll(List.of(options));
            args.add(target.pid());
            RemoraCli run = RemoraCli.run(args.toArray());
            assertThat(run.exitCode()).as(run.err()).isZero();
        } finally {
            ParkedTarget.kill(target);
        }
    }
}
