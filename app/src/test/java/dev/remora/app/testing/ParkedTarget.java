package dev.remora.app.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A live Python process whose threads are parked at known places, with the stacks it recorded of
 * itself. The script (e.g. {@link ParkedThreads#SCRIPT}) gets an output path as its first argument,
 * writes the stacks there as JSON, and prints READY; see parked_threads.py for the contract.
 *
 * <p>{@link #start} returns only once the process holds exactly the recorded threads: the
 * recorder thread that wrote the file has exited, so a dump of the live process can be compared
 * with {@link #expected()} as it is.
 */
public final class ParkedTarget implements AutoCloseable {

    public static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final String OUT_FILE = "out.json";
    private static final String STDERR_FILE = "stderr.txt";
    private static final Duration POLL_INTERVAL = Duration.ofMillis(10);

    private final TargetInterpreter interpreter;
    private final ScratchDir dir;
    private final Process process;
    private final ExpectedProcess expected;

    private ParkedTarget(TargetInterpreter interpreter, ScratchDir dir, Process process, ExpectedProcess expected) {
        this.interpreter = interpreter;
        this.dir = dir;
        this.process = process;
        this.expected = expected;
    }

    public static ParkedTarget start(TargetInterpreter interpreter, String scriptResource) {
        return start(interpreter, scriptResource, List.of());
    }

    /** Starts the script with OUT.json and then {@code scriptArgs}; fails with the target's stderr if it does not get ready. */
    public static ParkedTarget start(TargetInterpreter interpreter, String scriptResource, List<String> scriptArgs) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        ScratchDir dir = ScratchDir.create(interpreter, "remora-it-");
        Process process = null;
        try {
            List<String> args = new ArrayList<>(List.of(dir.inRoot(OUT_FILE)));
            args.addAll(scriptArgs);
            process = new ProcessBuilder(interpreter.scriptCommand(dir.copyResource(scriptResource), args))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectError(dir.host(STDERR_FILE).toFile())
                    .start();
            awaitReady(process, deadline);
            ExpectedProcess expected = StackJson.parse(Files.readString(dir.host(OUT_FILE), StandardCharsets.UTF_8),
                    dir.host(OUT_FILE).toString());
            if (expected.pid() != process.pid()) {
                // chroot(1) execs the interpreter; anything else in between would be inspected instead.
                throw new IllegalStateException("recorded pid " + expected.pid() + " is not the started process " + process.pid());
            }
            awaitOnlyRecordedThreads(process, expected.threadIds(), deadline);
            return new ParkedTarget(interpreter, dir, process, expected);
        } catch (IOException | RuntimeException e) {
            String stderr = readQuietly(dir.host(STDERR_FILE));
            kill(process);
            dir.close();
            throw new IllegalStateException(scriptResource + " on " + interpreter + ": " + e.getMessage()
                    + "\n--- target stderr ---\n" + stderr, e);
        }
    }

    public long pid() {
        return process.pid();
    }

    public ExpectedProcess expected() {
        return expected;
    }

    public TargetInterpreter interpreter() {
        return interpreter;
    }

    /** The directory holding the script, OUT.json and the target's stderr. */
    public ScratchDir directory() {
        return dir;
    }

    /** Kills the process (and anything it started) and deletes its directory. */
    @Override
    public void close() {
        kill(process);
        dir.close();
    }

    /** Waits until the target prints READY (reading on, so its stdout never blocks it); fails if it exits first. */
    public static void awaitReady(Process process, long deadline) {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        // Keeps reading after READY so that later output can never fill the pipe and block the target.
        Thread.ofVirtual().name("parked-target-stdout-" + process.pid()).start(() -> {
            try (BufferedReader stdout = process.inputReader(StandardCharsets.UTF_8)) {
                for (String line; (line = stdout.readLine()) != null; ) {
                    if (line.equals("READY")) {
                        ready.complete(null);
                    }
                }
            } catch (IOException ignored) {
                // The process is gone; the exit below reports it if READY never came.
            }
            ready.completeExceptionally(new IllegalStateException("exited before printing READY (exit code "
                    + process.onExit().join().exitValue() + ")"));
        });
        try {
            ready.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("did not print READY within " + READY_TIMEOUT, e);
        } catch (ExecutionException e) {
            throw (RuntimeException) e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for READY", e);
        }
    }

    /** Waits for the recorder's OS thread to be gone: READY is printed just before it exits. */
    private static void awaitOnlyRecordedThreads(Process process, Set<Long> recorded, long deadline) {
        Set<Long> live = liveThreads(process.pid());
        while (!live.equals(recorded)) {
            if (!process.isAlive()) {
                throw new IllegalStateException("exited after printing READY (exit code " + process.exitValue() + ")");
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("live threads " + live + " are not the recorded threads " + recorded);
            }
            sleep(POLL_INTERVAL);
            live = liveThreads(process.pid());
        }
    }

    private static Set<Long> liveThreads(long pid) {
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            return tasks.map(task -> Long.parseLong(task.getFileName().toString())).collect(Collectors.toUnmodifiableSet());
        } catch (IOException e) {
            return Set.of(); // The process has just exited: the caller reports it.
        }
    }

    /** Kills the process and anything it started, and waits a little for it; null is nothing to kill. */
    public static void kill(Process process) {
        if (process == null) {
            return;
        }
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The file's text, or a note saying why it cannot be read: for a failing target's stderr. */
    public static String readQuietly(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    @Override
    public String toString() {
        return "ParkedTarget[" + interpreter + ", pid " + process.pid() + "]";
    }
}
