package dev.remora.app.live;

import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code remora top} as a person uses it: in a tmux window, keys sent with send-keys, the screen read
 * with capture-pane. It shows the target's functions, sorts, filters by thread, pauses, follows a
 * resize, quits on q restoring the terminal, and ends with a final screen when the target exits.
 */
@Tag("targets")
class LiveViewTest {

    private static final String SESSION = "remora-live-test";
    private Process target;
    private ScratchDir dir;
    private TmuxWindow window;

    @AfterEach
    void stop() throws Exception {
        if (window != null) {
            window.close();
        }
        ParkedTarget.kill(target);
        if (dir != null) {
            dir.close();
        }
    }

    @Test
    void showsSortsFiltersPausesFollowsAResizeAndQuits() throws Exception {
        startTarget(4, 3600);
        startTop(120, 30, "-a");
        String screen = window.await(s -> s.contains("busy_leaf (live_threads.py)"), "the busy function");
        assertThat(screen).contains("Remora top  pid " + target.pid(), "Python 3.15", "sorted by %Own", "spin (live_threads.py)");
        // Three of four threads nap: napper holds three quarters of the samples, and the rows go by %Own.
        List<Double> own = screen.lines().filter(l -> l.matches(" *\\d+\\.\\d+%.*"))
                .map(l -> Double.parseDouble(l.strip().substring(0, l.strip().indexOf('%')))).toList();
        assertThat(own).hasSizeGreaterThan(3).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(screen.lines().filter(l -> l.contains("(live_threads.py)")).findFirst().orElseThrow()).contains("napper");

        window.keys("2");
        window.await(s -> s.contains("sorted by %Total"), "sorting by total");
        window.keys("t");
        window.await(s -> s.contains("  thread " ), "one thread shown");
        window.keys("p");
        window.await(s -> s.contains("[paused]"), "paused");
        window.keys("p");
        window.await(s -> !s.contains("[paused]"), "running again");

        window.resize(60, 12);
        String small = window.await(s -> s.lines().allMatch(l -> l.length() <= 60) && s.contains("Remora top"), "the narrow screen");
        assertThat(small.lines().count()).isLessThanOrEqualTo(12);

        window.keys("q");
        assertThat(window.awaitExit()).isEqualTo("0");
        assertThat(window.onAlternateScreen()).as("on the alternate screen").isFalse();
        // top writes no profile: its start line says what q does instead.
        assertThat(window.captureWithHistory()).contains("Captured", "busy_leaf (live_threads.py)", "q stops and leaves the last table.")
                .doesNotContain("writes the profile");
    }

    @Test
    void atEightyByTwentyFourTheHeaderFitsAndSaysWhichThreadsTheTableCounts() throws Exception {
        startTarget(3, 3600);
        startTop(80, 24, "-a");
        String screen = window.await(s -> s.contains("napper (live_threads.py)"), "the table");
        List<String> header = screen.lines().limit(3).toList();
        // Cut at 80 columns, a header line would lose its end: each must still end as it is made to.
        assertThat(header.get(0)).startsWith("Remora top  pid " + target.pid()).endsWith("wall mode  all threads");
        assertThat(header.get(2)).matches("Sampled: elapsed \\d+s  rate \\d+ Hz  samples \\d+  errors \\d+\\.\\d\\d%");

        window.keys("t");
        String one = window.await(s -> s.contains("  thread "), "one thread shown");
        // The lowest thread id first: the main thread, named as threading names it, its samples of the run's.
        assertThat(one.lines().findFirst().orElseThrow()).endsWith("thread " + target.pid() + " [MainThread]");
        java.util.regex.Matcher counts = java.util.regex.Pattern.compile("samples (\\d+) of (\\d+)").matcher(one);
        assertThat(counts.find()).as("the samples line of %s", one).isTrue();
        assertThat(Long.parseLong(counts.group(1))).isPositive().isLessThan(Long.parseLong(counts.group(2)));

        window.keys("q");
        assertThat(window.awaitExit()).isEqualTo("0");
        assertThat(window.captureWithHistory()).contains("q stops and leaves the last table.").doesNotContain("writes the profile");
    }

    @Test
    void ctrlCQuitsAsQDoes() throws Exception {
        startTarget(2, 3600);
        startTop(120, 30);
        window.await(s -> s.contains("busy_leaf (live_threads.py)"), "the busy function");
        window.keys("C-c");
        assertThat(window.awaitExit()).isEqualTo("0");
        assertThat(window.onAlternateScreen()).as("on the alternate screen").isFalse();
        assertThat(window.captureWithHistory()).contains("Captured", "busy_leaf (live_threads.py)");
    }

    @Test
    void theTargetExitingLeavesAFinalScreenAndExitsZero() throws Exception {
        startTarget(100, 4);
        startTop(120, 40, "-a");
        window.await(s -> s.contains("napper (live_threads.py)"), "a hundred threads drawn");
        assertThat(window.awaitExit()).isEqualTo("0");
        assertThat(window.capture()).contains("Process " + target.pid() + " exited.", "Remora top  pid " + target.pid(),
                "spin (live_threads.py)");
    }

    @Test
    void withoutATerminalItSaysSoInOneLine() throws Exception {
        startTarget(1, 3600);
        RemoraCli run = RemoraCli.run("top", target.pid());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip()).startsWith("remora: the live view needs a terminal").doesNotContain("\n");
    }

    private void startTarget(int threads, int seconds) throws Exception {
        dir = ScratchDir.create(python315(), "remora-it-live-");
        target = new ProcessBuilder(python315().scriptCommand(dir.copyResource("targets/live_threads.py"),
                List.of(Integer.toString(threads), Integer.toString(seconds)))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ParkedTarget.awaitReady(target, System.nanoTime() + ParkedTarget.READY_TIMEOUT.toNanos());
    }

    static TargetInterpreter python315() {
        return TargetInterpreters.all().stream().filter(t -> t.name().equals("debian-3.15")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no debian-3.15 among the targets"));
    }

    /** Starts {@code remora top OPTIONS PID} in a tmux window of that size. */
    private void startTop(int columns, int rows, String... options) throws Exception {
        List<String> args = new ArrayList<>(List.of("top"));
        args.addAll(List.of(options));
        args.add(Long.toString(target.pid()));
        window = TmuxWindow.remora(SESSION, columns, rows, dir.host("top-exit"), args);
    }
}
