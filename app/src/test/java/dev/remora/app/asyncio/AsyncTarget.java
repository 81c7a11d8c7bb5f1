package dev.remora.app.asyncio;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A live target running one of the asyncio_*.py scripts: started with OUT.json as its argument, it
 * parks its tasks, writes its own view of them there and prints READY.
 */
final class AsyncTarget implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private final TargetInterpreter interpreter;
    private final ScratchDir dir;
    private final Process process;
    private final JsonNode recorded;

    private AsyncTarget(TargetInterpreter interpreter, ScratchDir dir, Process process, JsonNode recorded) {
        this.interpreter = interpreter;
        this.dir = dir;
        this.process = process;
        this.recorded = recorded;
    }

    static AsyncTarget start(TargetInterpreter interpreter, String scriptResource) {
        ScratchDir dir = ScratchDir.create(interpreter, "remora-async-");
        Process process = null;
        try {
            process = new ProcessBuilder(interpreter.scriptCommand(dir.copyResource(scriptResource),
                    List.of(dir.inRoot("out.json"))))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectError(dir.host("stderr.txt").toFile())
                    .start();
            awaitReady(process);
            JsonNode recorded = MAPPER.readTree(Files.readString(dir.host("out.json"), StandardCharsets.UTF_8));
            if (recorded.get("pid").asLong() != process.pid()) {
                throw new IllegalStateException("recorded pid " + recorded.get("pid") + " is not the started process " + process.pid());
            }
            return new AsyncTarget(interpreter, dir, process, recorded);
        } catch (IOException | RuntimeException e) {
            String stderr;
            try {
                stderr = Files.readString(dir.host("stderr.txt"), StandardCharsets.UTF_8);
            } catch (IOException | UncheckedIOException ignored) {
                stderr = "(none)";
            }
            kill(process);
            dir.close();
            throw new IllegalStateException(scriptResource + " on " + interpreter + ": " + e.getMessage()
                    + "\n--- target stderr ---\n" + stderr, e);
        }
    }

    int pid() {
        return (int) process.pid();
    }

    TargetInterpreter interpreter() {
        return interpreter;
    }

    /** What the target wrote about itself (see the script's docstring). */
    JsonNode recorded() {
        return recorded;
    }

    @Override
    public void close() {
        kill(process);
        dir.close();
    }

    private static void awaitReady(Process process) {
        CompletableFuture<Void> ready = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader out = process.inputReader(StandardCharsets.UTF_8)) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.equals("READY")) {
                        ready.complete(null);
                    }
                }
            } catch (IOException ignored) {
                // The process is gone; reported below.
            }
            ready.completeExceptionally(new IllegalStateException("exited before printing READY"));
        });
        try {
            ready.get(READY_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("did not print READY within " + READY_TIMEOUT, e);
        } catch (ExecutionException e) {
            throw (RuntimeException) e.getCause();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static void kill(Process process) {
        if (process == null) {
            return;
        }
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
