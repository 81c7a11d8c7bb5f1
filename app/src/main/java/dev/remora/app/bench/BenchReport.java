package dev.remora.app.bench;

import dev.remora.app.output.json.JsonWriter;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/** Prints benchmark results for people or as one JSON document. */
public final class BenchReport {

    /**
     * What was measured, against what.
     *
     * @param rounds how many turns each unwinder took on the target, alternating with the other
     * @param frameMarker whether Remora kept the target's frame marker (CPython's own unwinder always does)
     */
    public record Setup(String workload, BenchApi api, String pythonVersion, long pid, String backend, ThreadScope threads, double seconds,
                        int rounds, boolean frameMarker) {}

    private BenchReport() {}

    public static void text(Setup setup, BenchResult ours, Optional<BenchResult> cpython, PrintWriter out) {
        out.printf(Locale.ROOT, "Benchmark %s, api %s, on Python %s (pid %d), backend %s, threads %s, frame marker %s, %.1f s per unwinder%s%n",
                setup.workload(), setup.api(), setup.pythonVersion(), setup.pid(), setup.backend(), setup.threads(),
                setup.frameMarker() ? "on" : "off", setup.seconds(),
                setup.rounds() > 1 ? " in %d turns each".formatted(setup.rounds()) : "");
        out.printf("%n%-8s %12s %12s %9s %12s %14s %14s %9s%n", "", "calls", "samples", "failures", "avg µs/call",
                "work rate/s", "sample rate/s", "success");
        row(ours, out);
        cpython.ifPresent(c -> row(c, out));
        cpython.ifPresent(c -> out.println(ratio(ours, c).isPresent()
                ? String.format(Locale.ROOT, "%nWork rate, remora / CPython: %.2fx", ratio(ours, c).getAsDouble())
                : String.format("%nWork rate, remora / CPython: not measured (an unwinder made no calls)")));
        if (cpython.isPresent() && !setup.frameMarker() && setup.api() == BenchApi.stack) {
            out.println("(CPython's unwinder keeps the target's frame marker; --frame-marker lets Remora do the same)");
        }
        out.println();
        out.println("remora's caches and reads:");
        ours.stats().forEach((k, v) -> out.printf(Locale.ROOT, "  %-26s %,d%n", k, v));
        out.flush();
    }

    public static void json(Setup setup, BenchResult ours, Optional<BenchResult> cpython, PrintWriter out) {
        out.println(JsonWriter.text(json -> {
            json.beginObject()
                    .name("workload").value(setup.workload())
                    .name("api").value(setup.api().name())
                    .name("python_version").value(setup.pythonVersion())
                    .name("pid").value(setup.pid())
                    .name("backend").value(setup.backend())
                    .name("threads").value(setup.threads().name())
                    .name("rounds").value(setup.rounds())
                    .name("frame_marker").value(setup.frameMarker());
            fields(ours, json);
            if (cpython.isPresent()) {
                json.name("cpython").beginObject();
                fields(cpython.get(), json);
                json.endObject().name("ratio");
                OptionalDouble ratio = ratio(ours, cpython.get());
                if (ratio.isPresent()) {
                    json.rounded(ratio.getAsDouble(), 4);
                } else {
                    json.nullValue();
                }
            }
            json.endObject();
        }));
        out.flush();
    }

    /** Remora's work rate over CPython's, when both made calls. */
    private static OptionalDouble ratio(BenchResult ours, BenchResult cpython) {
        return ours.workRate() > 0 && cpython.workRate() > 0
                ? OptionalDouble.of(ours.workRate() / cpython.workRate()) : OptionalDouble.empty();
    }

    private static void fields(BenchResult r, JsonWriter json) throws IOException {
        json.name("calls").value(r.calls())
                .name("samples").value(r.samples())
                .name("failures").value(r.failures())
                .name("avg_call_us").rounded(r.avgCallMicros(), 3)
                .name("work_rate").rounded(r.workRate(), 1)
                .name("sample_rate").rounded(r.sampleRate(), 1)
                .name("success_rate").rounded(r.successRate(), 2)
                .name("stats").beginObject();
        for (Map.Entry<String, Long> e : r.stats().entrySet()) {
            json.name(e.getKey()).value(e.getValue());
        }
        json.endObject();
    }

    private static void row(BenchResult r, PrintWriter out) {
        out.printf(Locale.ROOT, "%-8s %,12d %,12d %,9d %12.2f %,14.0f %,14.0f %8.2f%%%n", r.unwinder(), r.calls(), r.samples(),
                r.failures(), r.avgCallMicros(), r.workRate(), r.sampleRate(), r.successRate());
    }
}
