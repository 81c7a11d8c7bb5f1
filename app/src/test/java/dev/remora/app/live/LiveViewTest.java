package dev.remora.app.live;

import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

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

    @AfterEach
    void stop() throws Exception {
        tmux("kill-session", "-t", SESSION);
        ParkedTarget.kill(target);
        if (dir != null) {
            dir.close();
        }
    }

    @Test
    void showsSortsFiltersPausesFollowsAResizeAndQuits() throws Exception {
        startTarget(4, 3600);
        Path exit = startTop(120, 30, "-a");
        String screen = await(s -> s.contains("busy_leaf (live_threads.py)"), "the busy function");
        assertThat(screen).contains("Remora top  pid " + target.pid(), "Python 3.15", "sorted by %Own", "spin (live_threads.py)");
        // Three of four threads nap: napper holds three quarters of the samples, and the rows go by %Own.
        List<Double> own = screen.lines().filter(l -> l.matches(" *\\d+\\.\\d+%.*"))
                .map(l -> Double.parseDouble(l.strip().substring(0, l.strip().indexOf('%')))).toList();
        assertThat(own).hasSizeGreaterThan(3).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(screen.lines().filter(l -> l.contains("(live_threads.py)")).findFirst().orElseThrow()).contains("napper");

        keys("2");
        await(s -> s.contains("sorted by %Total"), "sorting by total");
        keys("t");
        await(s -> s.contains("  thread " ), "one thread shown");
        keys("p");
        await(s -> s.contains("[paused]"), "paused");
        keys("p");
        await(s -> !s.contains("[paused]"), "running again");

        tmux("resize-window", "-t", SESSION, "-x", "60", "-y", "12");
        String small = await(s -> s.lines().allMatch(l -> l.length() <= 60) && s.contains("Remora top"), "the narrow screen");
        assertThat(small.lines().count()).isLessThanOrEqualTo(12);

        keys("q");
        String after = awaitExit(exit);
        assertThat(after).isEqualTo("0");
        assertThat(tmuxOut("display", "-p", "-t", SESSION, "#{alternate_on}").strip()).as("left the alternate screen").isEqualTo("0");
        assertThat(tmuxOut("capture-pane", "-p", "-J", "-S", "-100", "-t", SESSION)).contains("Captured", "busy_leaf (live_threads.py)");
    }

    @Test
    void ctrlCQuitsAsQDoes() throws Exception {
        startTarget(2, 3600);
        Path exit = startTop(120, 30);
        await(s -> s.contains("busy_leaf (live_threads.py)"), "the busy function");
        keys("C-c");
        assertThat(awaitExit(exit)).isEqualTo("0");
        assertThat(tmuxOut("display", "-p", "-t", SESSION, "#{alternate_on}").strip()).as("left the alternate screen").isEqualTo("0");
        assertThat(tmuxOut("capture-pane", "-p", "-J", "-S", "-100", "-t", SESSION)).contains("Captured", "busy_leaf (live_threads.py)");
    }

    @Test
    void theTargetExitingLeavesAFinalScreenAndExitsZero() throws Exception {
        startTarget(100, 4);
        Path exit = startTop(120, 40, "-a");
        await(s -> s.contains("napper (live_threads.py)"), "a hundred threads drawn");
        assertThat(awaitExit(exit)).isEqualTo("0");
        assertThat(capture()).contains("Process " + target.pid() + " exited.", "Remora top  pid " + target.pid(), "spin (live_threads.py)");
    }

    @Test
    void withoutATerminalItSaysSoInOneLine() throws Exception {
        startTarget(1, 3600);
        RemoraCli run = RemoraCli.run("top", target.pid());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip()).startsWith("remora: the live view needs a terminal").doesNotContain("\n");
    }

    private void startTarget(int threads, int seconds) throws Exception {
        TargetInterpreter python = TargetInterpreters.all().stream().filter(t -> t.name().equals("debian-3.15")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no debian-3.15 among the targets"));
        dir = ScratchDir.create(python, "remora-it-live-");
        target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/live_threads.py"),
                List.of(Integer.toString(threads), Integer.toString(seconds)))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ParkedTarget.awaitReady(target, System.nanoTime() + ParkedTarget.READY_TIMEOUT.toNanos());
    }

    /** Starts {@code remora top OPTIONS PID} in a tmux window of that size; the file gets its exit code. */
    private Path startTop(int columns, int rows, String... options) throws Exception {
        Path exit = dir.host("top-exit");
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "dev.remora.app.Main", "top"));
        command.addAll(List.of(options));
        command.add(Long.toString(target.pid()));
        String shell = String.join(" ", command.stream().map(LiveViewTest::quoted).toList())
                + "; echo $? > " + quoted(exit.toString()) + "; sleep 600";
        tmux("new-session", "-d", "-s", SESSION, "-x", Integer.toString(columns), "-y", Integer.toString(rows), shell);
        return exit;
    }

    private static String quoted(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static void keys(String keys) throws Exception {
        tmux("send-keys", "-t", SESSION, keys);
    }

    private static String capture() throws Exception {
        return tmuxOut("capture-pane", "-p", "-t", SESSION);
    }

    /** The screen once it satisfies {@code ready}; fails with the last screen after 30 s. */
    private static String await(Predicate<String> ready, String what) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String screen = capture();
        while (!ready.test(screen)) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no " + what + " on the screen:\n" + screen);
            }
            Thread.sleep(100);
            screen = capture();
        }
        return screen;
    }

    private static String awaitExit(Path exit) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!Files.exists(exit) || Files.readString(exit).isBlank()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("remora top did not exit:\n" + capture());
            }
            Thread.sleep(100);
        }
        return Files.readString(exit).strip();
    }

    private static void tmux(String... args) throws Exception {
        tmuxOut(args);
    }

    private static String tmuxOut(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tmux"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        p.waitFor(30, TimeUnit.SECONDS);
        return out;
    }
}
