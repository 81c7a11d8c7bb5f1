package dev.remora.app.asyncio;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A live target running one of the asyncio_*.py scripts: started with OUT.json as its argument, it
 * parks its tasks, writes its own view of them there and prints READY.
 */
final class AsyncTarget implements AutoCloseable {

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
            dir.copyResource("targets/asyncio_record.py");
            process = new ProcessBuilder(interpreter.scriptCommand(dir.copyResource(scriptResource),
                    List.of(dir.inRoot("out.json"))))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectError(dir.host("stderr.txt").toFile())
                    .start();
            ParkedTarget.awaitReady(process, System.nanoTime() + ParkedTarget.READY_TIMEOUT.toNanos());
            JsonNode recorded = MAPPER.readTree(Files.readString(dir.host("out.json"), StandardCharsets.UTF_8));
            if (recorded.get("pid").asLong() != process.pid()) {
                throw new IllegalStateException("recorded pid " + recorded.get("pid") + " is not the started process " + process.pid());
            }
            return new AsyncTarget(interpreter, dir, process, recorded);
        } catch (IOException | RuntimeException e) {
            String stderr = ParkedTarget.readQuietly(dir.host("stderr.txt"));
            ParkedTarget.kill(process);
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
        ParkedTarget.kill(process);
        dir.close();
    }
}
