package dev.remora.app.profile;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The remora command in a JVM of its own, for what only a real process shows: inherited stdio of a
 * launched target, signals, exit codes.
 */
final class RemoraProcess implements AutoCloseable {

    private final Process process;
    private final CompletableFuture<String> out;
    private final CompletableFuture<String> err;

    private RemoraProcess(Process process) {
        this.process = process;
        this.out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
        this.err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
    }

    static RemoraProcess start(Path workingDirectory, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "dev.remora.app.Main"));
        command.addAll(List.of(args));
        return new RemoraProcess(new ProcessBuilder(command).directory(workingDirectory.toFile()).start());
    }

    long pid() {
        return process.pid();
    }

    /** Waits for the exit; returns the exit code. */
    int waitFor() throws InterruptedException {
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("remora did not finish; stderr so far: " + err.getNow(""));
        }
        return process.exitValue();
    }

    String out() {
        return out.join();
    }

    String err() {
        return err.join();
    }

    void interrupt() throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
    }

    @Override
    public void close() {
        process.destroyForcibly();
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "<unreadable: " + e + ">";
        }
    }
}
