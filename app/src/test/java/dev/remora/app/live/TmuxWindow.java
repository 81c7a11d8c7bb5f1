package dev.remora.app.live;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A tmux session running one Remora command, as a person sees it: keys go in with send-keys, the
 * screen comes out with capture-pane, and the command's exit code lands in a file.
 */
final class TmuxWindow implements AutoCloseable {

    private final String session;
    private final Path exit;

    private TmuxWindow(String session, Path exit) {
        this.session = session;
        this.exit = exit;
    }

    /** Starts {@code remora ARGS} from the test's class path in a new session of that size. */
    static TmuxWindow remora(String session, int columns, int rows, Path exit, List<String> args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "dev.remora.app.Main"));
        command.addAll(args);
        String shell = String.join(" ", command.stream().map(TmuxWindow::quoted).toList())
                + "; echo $? > " + quoted(exit.toString()) + "; sleep 600";
        tmux("new-session", "-d", "-s", session, "-x", Integer.toString(columns), "-y", Integer.toString(rows), shell);
        return new TmuxWindow(session, exit);
    }

    void keys(String keys) throws Exception {
        tmux("send-keys", "-t", session, keys);
    }

    void resize(int columns, int rows) throws Exception {
        tmux("resize-window", "-t", session, "-x", Integer.toString(columns), "-y", Integer.toString(rows));
    }

    /** The screen as it is now. */
    String capture() throws Exception {
        return tmuxOut("capture-pane", "-p", "-t", session);
    }

    /** The screen and the 100 lines above it, wrapped lines joined. */
    String captureWithHistory() throws Exception {
        return tmuxOut("capture-pane", "-p", "-J", "-S", "-100", "-t", session);
    }

    boolean onAlternateScreen() throws Exception {
        return !tmuxOut("display", "-p", "-t", session, "#{alternate_on}").strip().equals("0");
    }

    /** The screen once it satisfies {@code ready}; fails with the last screen after 30 s. */
    String await(Predicate<String> ready, String what) throws Exception {
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

    /** The command's exit code, once it has one; fails with the screen after 60 s. */
    String awaitExit() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (!Files.exists(exit) || Files.readString(exit).isBlank()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the command did not exit:\n" + capture());
            }
            Thread.sleep(100);
        }
        return Files.readString(exit).strip();
    }

    @Override
    public void close() throws IOException {
        try {
            tmux("kill-session", "-t", session);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static String quoted(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    private static void tmux(String... args) throws IOException, InterruptedException {
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
