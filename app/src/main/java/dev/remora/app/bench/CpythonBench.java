package dev.remora.app.bench;

import dev.remora.app.output.json.JsonException;
import dev.remora.app.output.json.JsonReader;
import dev.remora.app.output.json.JsonValue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * CPython 3.15's own remote unwinder on the same target, run the way CPython's benchmark does, in a
 * helper process that measures slice by slice so that Remora's slices can be interleaved with its own.
 */
public final class CpythonBench implements BenchSide {

    /** How long past its slice the helper may take to answer before it is taken for hung. */
    private static final long GRACE_NANOS = TimeUnit.SECONDS.toNanos(60);

    private final Process process;
    private final BufferedReader answers;
    private final PrintWriter requests;
    private BenchResult total = BenchResult.empty("cpython");

    private CpythonBench(Process process) {
        this.process = process;
        this.answers = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        this.requests = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    }

    /**
     * Starts the helper and waits until its unwinder is attached to the target.
     *
     * @param freshEachSlice give each slice a new unwinder: another profiler moves the frame markers
     *     its cache relies on between slices
     */
    public static CpythonBench start(Path python, long pid, ThreadScope scope, BenchApi api, boolean freshEachSlice)
            throws IOException {
        Process p = new ProcessBuilder(python.toString(), "-c", Workload.resource("bench/cpython_unwinder.py"),
                Long.toString(pid), scope.name(), api.cpythonMethod(), freshEachSlice ? "fresh" : "kept")
                .redirectErrorStream(true).start();
        CpythonBench bench = new CpythonBench(p);
        try {
            bench.answer(CpythonBench::ready, 0);
        } catch (IOException | RuntimeException e) {
            bench.close();
            throw e;
        }
        return bench;
    }

    @Override
    public void measure(long nanos) throws IOException {
        requests.println(String.format(Locale.ROOT, "%.6f", nanos / 1e9));
        total = total.plus(answer(CpythonBench::slice, nanos));
    }

    /** {@code {"ready": true}}: the helper's unwinder is attached to the target. */
    private static JsonValue ready(JsonValue answer) {
        if (!answer.get("ready").asBoolean()) {
            throw new JsonException("not ready");
        }
        return answer;
    }

    /** What one slice measured: {@code {"calls", "samples", "failures", "work_seconds", "wall_seconds"}}. */
    private static BenchResult slice(JsonValue answer) {
        return new BenchResult("cpython", answer.get("calls").asLong(), answer.get("samples").asLong(),
                answer.get("failures").asLong(), Math.round(answer.get("work_seconds").asDouble() * 1e9),
                Math.round(answer.get("wall_seconds").asDouble() * 1e9), Map.of());
    }

    @Override
    public void warmUp(long nanos) throws IOException {
        measure(nanos);
        total = BenchResult.empty("cpython");
    }

    @Override
    public BenchResult result() {
        return total;
    }

    /**
     * The helper's next answer, as {@code read} takes it. Output that is not JSON, or not the answer
     * {@code read} expects, is passed over (Python's warnings go to the same stream). When the helper
     * ends instead, its last line of output (its error) is the failure; when it stays silent past the
     * slice and a grace period, it is stopped.
     */
    private <T> T answer(Function<JsonValue, T> read, long sliceNanos) throws IOException {
        AtomicBoolean silent = new AtomicBoolean();
        Thread watchdog = Thread.ofVirtual().start(() -> {
            try {
                TimeUnit.NANOSECONDS.sleep(sliceNanos + GRACE_NANOS);
                silent.set(true);
                process.destroyForcibly();
            } catch (InterruptedException answered) {
                // The answer came in time.
            }
        });
        try {
            String line;
            String last = null;
            while ((line = answers.readLine()) != null) {
                try {
                    return read.apply(JsonReader.parse(line));
                } catch (JsonException notTheAnswer) {
                    last = line;
                }
            }
            if (silent.get()) {
                throw new IOException("CPython's unwinder gave no answer within %d s and was stopped"
                        .formatted(TimeUnit.NANOSECONDS.toSeconds(sliceNanos + GRACE_NANOS)));
            }
            throw new IOException("CPython's unwinder failed: " + (last == null ? "no output" : last));
        } finally {
            watchdog.interrupt();
        }
    }

    @Override
    public void close() {
        requests.close();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            answers.close();
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } catch (IOException ignored) {
            // The helper is gone either way.
        }
    }
}
