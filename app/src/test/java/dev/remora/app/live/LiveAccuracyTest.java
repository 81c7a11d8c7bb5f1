package dev.remora.app.live;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.SampledWindow;
import dev.remora.app.testing.ScratchDir;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The live view's numbers against a target that times itself, on code whose stack changes every few
 * microseconds: paused after a few seconds, each function's TotalTime over its caller's must match the
 * share the target measured over the seconds the view watched, as near as the test's own clock tells
 * them (perf_counter in wall mode, thread_time in cpu mode), and in wall mode the caller's seconds
 * must be the time the view ran.
 */
@Tag("targets")
class LiveAccuracyTest {

    private static final String SESSION = "remora-live-accuracy";
    private static final int TARGET_SECONDS = 9;
    private static final int WATCHED_SECONDS = 4;
    private static final List<String> FUNCTIONS = List.of("json_round_trips", "regex_generator", "recursion",
            "tiny_calls", "c_calls_back", "asyncio_tasks", "short_sleeps");
    /** A table row: %Own, %Total, OwnTime, TotalTime, function and file. */
    private static final Pattern ROW = Pattern.compile(" *([\\d.]+)% +([\\d.]+)% +([\\d.]+)s +([\\d.]+)s +(\\S+) \\((.+)\\)");
    private static final Pattern ELAPSED = Pattern.compile(" elapsed (\\d+)s ");
    private static final Pattern SAMPLES = Pattern.compile(" samples (\\d+)");
    private static final Pattern CAPTURED = Pattern.compile("Captured (\\d+) samples? ");

    @ParameterizedTest(name = "{0} mode")
    @ValueSource(strings = {"wall", "cpu"})
    void totalTimesMatchWhatTheTargetMeasured(String mode) throws Exception {
        try (ScratchDir dir = ScratchDir.create(LiveViewTest.python315(), "remora-it-live-accuracy-")) {
            dir.copyResource("targets/timed_calls.py");
            Process target = new ProcessBuilder(LiveViewTest.python315().scriptCommand(dir.copyResource("targets/callheavy.py"),
                    List.of(Integer.toString(TARGET_SECONDS), mode))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String screen;
            String last;
            JsonNode measured;
            try (TmuxWindow window = TmuxWindow.remora(SESSION, 160, 60, dir.host("top-exit"),
                    List.of("top", "--mode", mode, Long.toString(target.pid())))) {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                // Sorted by TotalTime, the callers and the seven functions head the table; paused after a
                // few seconds, the rows and the header hold still while they are read.
                window.await(s -> s.contains("(callheavy.py)"), "the target's functions");
                // The view draws its first table a second into sampling: near enough the window's start.
                double watchedFrom = System.currentTimeMillis() / 1e3 - 1;
                window.keys("4");
                window.await(s -> s.contains("sorted by TotalTime") && elapsed(s) >= WATCHED_SECONDS, "a few seconds sorted by total time");
                window.keys("p");
                double watchedTo = System.currentTimeMillis() / 1e3;
                screen = window.await(s -> s.contains("[paused]"), "the paused table");
                measured = new SampledWindow(watchedFrom, watchedTo).askTarget(target, out);
                assertThat(window.awaitExit()).isEqualTo("0");
                last = window.capture();
            } finally {
                ParkedTarget.kill(target);
            }

            Map<String, Double> totalSeconds = new HashMap<>();
            for (String line : screen.lines().toList()) {
                Matcher row = ROW.matcher(line);
                if (row.matches() && row.group(6).equals("callheavy.py")) {
                    totalSeconds.put(row.group(5), Double.parseDouble(row.group(4)));
                }
            }
            assertThat(totalSeconds).as(screen).containsKeys(FUNCTIONS.toArray(String[]::new)).containsKey("main");
            // Every sample of the loop has main on the stack: its total is the time the view watched.
            double watched = totalSeconds.get("main");
            for (String function : FUNCTIONS) {
                assertThat(totalSeconds.get(function) / watched)
                        .as("%s's share in %s mode (measured %s)\n%s", function, mode, measured, screen)
                        .isCloseTo(measured.get(function).asDouble(), within(0.02));
            }
            if (mode.equals("wall")) {
                assertThat(watched).as("seconds main was on the stack, against the elapsed time shown\n%s", screen)
                        .isCloseTo(elapsed(screen), within(1.0));
            }
            // The table left behind speaks of the whole run: each %Total is its TotalTime over all samples.
            Matcher samples = SAMPLES.matcher(last);
            assertThat(samples.find()).as(last).isTrue();
            // Its header gives the run's final count, the one the summary above it states.
            Matcher captured = CAPTURED.matcher(last);
            assertThat(captured.find()).as(last).isTrue();
            assertThat(samples.group(1)).as("samples in the last header\n%s", last).isEqualTo(captured.group(1));
            double seconds = Long.parseLong(samples.group(1)) / 1000.0; // sampled at 1 kHz
            List<Matcher> rows = last.lines().map(ROW::matcher).filter(Matcher::matches).toList();
            assertThat(rows).as(last).hasSizeGreaterThan(5);
            for (Matcher row : rows) {
                assertThat(Double.parseDouble(row.group(2))).as("%%Total of %s on the last screen\n%s", row.group(5), last)
                        .isCloseTo(100 * Double.parseDouble(row.group(4)) / seconds, within(0.3));
            }
        }
    }

    /** The whole seconds the header says the view has run, or -1 before it says. */
    private static int elapsed(String screen) {
        Matcher elapsed = ELAPSED.matcher(screen);
        return elapsed.find() ? Integer.parseInt(elapsed.group(1)) : -1;
    }
}
