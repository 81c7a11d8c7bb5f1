package dev.remora.app.cli;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** {@code --browser}: hands an HTML file to the desktop's opener, or says where the file is when there is none. */
final class BrowserOpener {

    private static final String OPENER = "xdg-open";
    /** How long the opener may take to say it failed. */
    private static final long WAIT_SECONDS = 3;

    private final Optional<Path> opener;

    private BrowserOpener(Optional<Path> opener) {
        this.opener = opener;
    }

    static BrowserOpener fromEnvironment() {
        return onPath(System.getenv("PATH"));
    }

    /** The opener found on {@code path} (a PATH value), if any. */
    static BrowserOpener onPath(String path) {
        if (path != null) {
            for (String dir : path.split(File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, OPENER))) {
                    return new BrowserOpener(Optional.of(Path.of(dir, OPENER)));
                }
            }
        }
        return new BrowserOpener(Optional.empty());
    }

    /** Opens {@code file}, saying so on {@code err}; the opener runs on by itself, its output discarded. */
    void open(Path file, PrintWriter err) {
        Path absolute = file.toAbsolutePath();
        if (opener.isEmpty()) {
            err.printf("No %s here to open a browser with; open %s in one.%n", OPENER, absolute);
            err.flush();
            return;
        }
        try {
            Process open = new ProcessBuilder(opener.get().toString(), absolute.toString())
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                    .start();
            // xdg-open hands the file over and exits at once, non-zero when nothing could open it (3: no
            // browser); one that is still running is opening it.
            if (open.waitFor(WAIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS) && open.exitValue() != 0) {
                err.printf("%s could not open it (exit %d); open %s in a browser.%n", OPENER, open.exitValue(), absolute);
            } else {
                err.printf("Opened %s with %s.%n", absolute, OPENER);
            }
        } catch (IOException e) {
            err.printf("Could not run %s (%s); open %s in a browser.%n", OPENER, e.getMessage(), absolute);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.printf("Open %s in a browser.%n", absolute);
        }
        err.flush();
    }
}
