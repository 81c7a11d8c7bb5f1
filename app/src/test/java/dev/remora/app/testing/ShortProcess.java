package dev.remora.app.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a command that is expected to finish, capturing its output. */
final class ShortProcess {

    record Result(List<String> command, int exitCode, String stdout, String stderr) {

        /** The standard output, or an exception carrying the standard error if the command failed. */
        String requireSuccess(String what) {
            if (exitCode != 0) {
                throw new IllegalStateException(what + " failed (exit code " + exitCode + "): " + String.join(" ", command)
                        + "\n--- stderr ---\n" + stderr);
            }
            return stdout;
        }
    }

    private ShortProcess() {}

    static Result run(List<String> command, Duration timeout) {
        Path stdout = null;
        Path stderr = null;
        try {
            // Files instead of pipes: the JVM opens them before the exec (even for chroot), and
            // nothing has to drain a pipe while we wait.
            stdout = Files.createTempFile("remora-stdout-", ".txt");
            stderr = Files.createTempFile("remora-stderr-", ".txt");
            Process process = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(stdout.toFile())
                    .redirectError(stderr.toFile())
                    .start();
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly().waitFor();
                throw new IllegalStateException("timed out after " + timeout + ": " + String.join(" ", command)
                        + "\n--- stderr ---\n" + Files.readString(stderr, StandardCharsets.UTF_8));
            }
            return new Result(List.copyOf(command), process.exitValue(),
                    Files.readString(stdout, StandardCharsets.UTF_8), Files.readString(stderr, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
        } finally {
            deleteQuietly(stdout);
            deleteQuietly(stderr);
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A leftover temp file is harmless.
            }
        }
    }
}
