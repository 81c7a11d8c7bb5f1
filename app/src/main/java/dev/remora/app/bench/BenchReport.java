package dev.remora.app.bench;

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
        StringBuilder b = new StringBuilder("{");
        b.append(String.format(Locale.ROOT, "\"workload\": \"%s\", \"api\": \"%s\", \"python_version\": \"%s\", \"pid\": %d, \"backend\": \"%s\", "
                + "\"threads\": \"%s\", \"rounds\": %d, \"frame_marker\": %b, ", setup.workload(), setup.api(), setup.pythonVersion(), setup.pid(), setup.backend(),
                setup.threads(), setup.rounds(), setup.frameMarker()));
        fields(ours, b);
        cpython.ifPresent(c -> {
            b.append(", \"cpython\": {");
            fields(c, b);
            OptionalDouble ratio = ratio(ours, c);
            b.append(ratio.isPresent() ? String.format(Locale.ROOT, "}, \"ratio\": %.4f", ratio.getAsDouble()) : "}, \"ratio\": null");
        });
        out.println(b.append('}'));
        out.flush();
    }

    /** Remora's work rate over CPython's, when both made calls. */
    private static OptionalDouble ratio(BenchResult ours, BenchResult cpython) {
        return ours.workRate() > 0 && cpython.workRate() > 0
                ? OptionalDouble.of(ours.workRate() / cpython.workRate()) : OptionalDouble.empty();
    }

    private static void fields(BenchResult r, StringBuilder b) {
        b.append(String.format(Locale.ROOT, "\"calls\": %d, \"samples\": %d, \"failures\": %d, \"avg_call_us\": %.3f, "
                        + "\"work_rate\": %.1f, \"sample_rate\": %.1f, \"success_rate\": %.2f, \"stats\": {",
                r.calls(), r.samples(), r.failures(), r.avgCallMicros(), r.workRate(), r.sampleRate(), r.successRate()));
        String sep = "";
        for (Map.Entry<String, Long> e : r.stats().entrySet()) {
            b.append(sep).append('"').append(e.getKey()).append("\": ").append(e.getValue());
            sep = ", ";
        }
        b.append('}');
    }

    private static void row(BenchResult r, PrintWriter out) {
        out.printf(Locale.ROOT, "%-8s %,12d %,12d %,9d %12.2f %,14.0f %,14.0f %8.2f%%%n", r.unwinder(), r.calls(), r.samples(),
                r.failures(), r.avgCallMicros(), r.workRate(), r.sampleRate(), r.successRate());
    }
}
