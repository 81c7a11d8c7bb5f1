package dev.remora.app.asyncio;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.domain.asyncio.AsyncMode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * CPython's own view of a process's asyncio tasks: {@code RemoteUnwinder.get_all_awaited_by()} or
 * {@code get_async_stack_trace()}, run by the target's interpreter in its root
 * (targets/asyncio_reference.py).
 */
final class CpythonAsyncReference {

    private static final String SCRIPT = "targets/asyncio_reference.py";
    private static final ObjectMapper MAPPER = new ObjectMapper();

    private CpythonAsyncReference() {}

    static JsonNode read(TargetInterpreter interpreter, int pid, AsyncMode mode) {
        try (ScratchDir dir = ScratchDir.create(interpreter, "remora-async-ref-")) {
            String script = dir.copyResource(SCRIPT);
            Path out = dir.host("out.json");
            Path err = dir.host("err.txt");
            Process p = new ProcessBuilder(interpreter.scriptCommand(script, List.of(Integer.toString(pid), mode.label())))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("CPython's unwinder timed out");
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("CPython's unwinder (" + interpreter + ") failed on pid " + pid + ":\n"
                        + Files.readString(err, StandardCharsets.UTF_8));
            }
            return MAPPER.readTree(Files.readString(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
