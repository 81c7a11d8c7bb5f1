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
public final class RemoraProcess implements AutoCloseable {

    /** Each stream gets a thread of its own: the common pool may have a single one, which one blocked read holds. */
    private static final java.util.concurrent.Executor OWN_THREAD = task -> Thread.ofPlatform().daemon().start(task);

    private final Process process;
    private final CompletableFuture<String> out;
    /** Standard error as it comes, so that a test can wait for a line before it acts. */
    private final StringBuffer errSoFar = new StringBuffer();
    private final CompletableFuture<String> err;

    private RemoraProcess(Process process) {
        this.process = process;
        this.out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()), OWN_THREAD);
        this.err = CompletableFuture.supplyAsync(() -> {
            try (java.io.Reader in = new java.io.InputStreamReader(process.getErrorStream(), StandardCharsets.UTF_8)) {
                char[] buffer = new char[4096];
                for (int n; (n = in.read(buffer)) >= 0; ) {
                    errSoFar.append(buffer, 0, n);
                }
            } catch (IOException e) {
                errSoFar.append("<unreadable: ").append(e).append('>');
            }
            return errSoFar.toString();
        }, OWN_THREAD);
    }

    public static RemoraProcess start(Path workingDirectory, String... args) throws IOException {
        return start(workingDirectory, List.of(), args);
    }

    /**
     * A profile in a JVM set up as the launcher sets one up for it: its small young generation, and the
     * compiler threads' priority this JVM was given (run-tests passes the launcher's). A profile taken in
     * the test JVM instead shares it with what earlier tests left: a heap of gigabytes and its pauses.
     */
    public static RemoraProcess profile(Path workingDirectory, String... args) throws IOException {
        List<String> jvm = new ArrayList<>(List.of("-Xmn16m"));
        for (String argument : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (argument.startsWith("-XX:ThreadPriorityPolicy") || argument.startsWith("-XX:CompilerThreadPriority")) {
                jvm.add(argument);
            }
        }
        return start(workingDirectory, jvm, args);
    }

    private static RemoraProcess start(Path workingDirectory, List<String> jvm, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow"));
        command.addAll(jvm);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), "dev.remora.app.Main"));
        command.addAll(List.of(args));
        return new RemoraProcess(new ProcessBuilder(command).directory(workingDirectory.toFile()).start());
    }

    public long pid() {
        return process.pid();
    }

    /** Waits for the exit; returns the exit code. */
    public int waitFor() throws InterruptedException {
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("remora did not finish; stderr so far: " + err.getNow(""));
        }
        return process.exitValue();
    }

    /** Waits until standard error shows this text; fails if remora exits or a minute passes first. */
    public void awaitErr(String text) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (errSoFar.indexOf(text) < 0) {
            if (err.isDone() || System.nanoTime() > deadline) {
                throw new AssertionError("remora never printed \"" + text + "\"; stderr: " + errSoFar);
            }
            Thread.sleep(10);
        }
    }

    public String out() {
        return out.join();
    }

    public String err() {
        return err.join();
    }

    public void interrupt() throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-INT", Long.toString(process.pid())).start().waitFor();
    }

    /** SIGTERM, as a service manager stops a service. */
    public void terminate() throws IOException, InterruptedException {
        new ProcessBuilder("kill", "-TERM", Long.toString(process.pid())).start().waitFor();
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
