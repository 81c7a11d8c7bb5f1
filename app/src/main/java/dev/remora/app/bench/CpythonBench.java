package dev.remora.app.bench;


import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs CPython 3.15's own remote unwinder against the same target, the way CPython's benchmark does. */
public final class CpythonBench {

    private static final Pattern RESULT = Pattern.compile(
            "\\{\"calls\": (\\d+), \"samples\": (\\d+), \"failures\": (\\d+), \"work_seconds\": ([0-9.e+-]+), \"wall_seconds\": ([0-9.e+-]+)}");

    private CpythonBench() {}

    public static BenchResult run(Path python, long pid, ThreadScope scope, BenchApi api, long durationNanos) throws IOException, InterruptedException {
        String seconds = String.format(Locale.ROOT, "%.3f", durationNanos / 1e9);
        Process p = new ProcessBuilder(python.toString(), "-c", Workload.resource("bench/cpython_unwinder.py"),
                Long.toString(pid), seconds, scope.name(), api.cpythonMethod()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(durationNanos / 1_000_000_000L + 60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IOException("CPython's unwinder failed: " + lastLine(out));
        }
        Matcher m = RESULT.matcher(lastLine(out));
        if (!m.matches()) {
            throw new IOException("unexpected output from CPython's unwinder: " + lastLine(out));
        }
        return new BenchResult("cpython", Long.parseLong(m.group(1)), Long.parseLong(m.group(2)), Long.parseLong(m.group(3)),
                Math.round(Double.parseDouble(m.group(4)) * 1e9), Math.round(Double.parseDouble(m.group(5)) * 1e9), Map.of());
    }

    private static String lastLine(String out) {
        List<String> lines = out.lines().toList();
        return lines.isEmpty() ? "" : lines.getLast();
    }
}
