package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.PyText;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The "Summary of Interesting Functions" under the pstats table: the shown rows added up per
 * function (all its lines together), then three top-3 lists: where the samples fall in a function
 * itself, where they fall in its callees, and how much more they fall under it than in it. In
 * CPython's style worded and ordered as CPython 3.15 prints it (hot spots by ratio, samples called
 * calls); in Remora's, worded in samples, hot spots ranked by them. A list entry whose condition
 * fails is left out, not replaced by the next one.
 */
final class PstatsSummary {

    private static final int TOP = 3;

    /** One function's samples over all its shown lines; {@code file} and {@code function} as CPython splits them. */
    private record Aggregate(String file, String function, long direct, long cumulative) {
        String label() {
            return file + ":(" + function + ")";
        }
    }

    private final List<Aggregate> functions;
    private final long total;

    PstatsSummary(List<SampledStats.Entry> rows, long totalSamples) {
        this.total = totalSamples;
        Map<String, long[]> byName = new LinkedHashMap<>();
        for (SampledStats.Entry e : rows) {
            long[] sums = byName.computeIfAbsent(e.key.file() + ":" + e.key.function(), k -> new long[2]);
            sums[0] += e.direct;
            sums[1] += e.cumulative;
        }
        functions = new ArrayList<>();
        byName.forEach((name, sums) -> {
            // CPython joins file and function with ':' and splits at the last one, so a ':' in the
            // function's name moves its first part to the file; shown the same way here.
            int colon = name.lastIndexOf(':');
            functions.add(new Aggregate(name.substring(0, colon), name.substring(colon + 1), sums[0], sums[1]));
        });
    }

    void print(PrintWriter out, TableStyle style) {
        PstatsTable.line(out, "");
        PstatsTable.line(out, "Summary of Interesting Functions:");
        if (style == TableStyle.CPYTHON) {
            printAsCpython(out);
            return;
        }
        section(out, "Hot Spots (most samples in the function itself)", f -> f.direct,
                f -> f.direct > 0
                        ? samples(f.direct) + " in it, " + samples(f.cumulative) + " with its callees: " + f.label()
                        : null);
        section(out, "Most Samples in Callees", f -> f.cumulative - f.direct,
                f -> f.cumulative > f.direct
                        ? samples(f.cumulative - f.direct) + " in callees, on the stack in "
                          + PyText.fixed(PstatsTable.percent(f.cumulative, total), 1) + "%: " + f.label()
                        : null);
        section(out, "Most Time Passed on to Callees (Cumulative/Direct)",
                f -> f.direct > 0 ? (double) f.cumulative / f.direct : 0,
                f -> f.direct > 0 && f.cumulative > f.direct
                        ? PyText.fixed((double) f.cumulative / f.direct, 1) + "x: " + f.cumulative + " with its callees, "
                          + f.direct + " in it: " + f.label()
                        : null);
    }

    /** {@code count} samples and their share, as {@code "482 samples (50.1%)"}. */
    private String samples(long count) {
        return count + (count == 1 ? " sample (" : " samples (") + PyText.fixed(PstatsTable.percent(count, total), 1) + "%)";
    }

    private void printAsCpython(PrintWriter out) {
        section(out, "Functions with Highest Direct/Cumulative Ratio (Hot Spots)",
                f -> f.cumulative > 0 ? (double) f.direct / f.cumulative : 0,
                f -> f.direct > 0 && f.cumulative > 0
                        ? PyText.fixed((double) f.direct / f.cumulative, 3) + " direct/cumulative ratio, "
                          + PyText.fixed(PstatsTable.percent(f.direct, total), 1) + "% direct samples: " + f.label()
                        : null);
        section(out, "Functions with Highest Call Frequency (Indirect Calls)",
                f -> f.cumulative - f.direct,
                f -> f.cumulative > f.direct
                        ? (f.cumulative - f.direct) + " indirect calls, "
                          + PyText.fixed(PstatsTable.percent(f.cumulative, total), 1) + "% total stack presence: " + f.label()
                        : null);
        section(out, "Functions with Highest Call Magnification (Cumulative/Direct)",
                f -> f.direct > 0 ? (double) f.cumulative / f.direct : 0,
                f -> f.direct > 0 && f.cumulative > f.direct
                        ? PyText.fixed((double) f.cumulative / f.direct, 1) + "x call magnification, "
                          + (f.cumulative - f.direct) + " indirect calls from " + f.direct + " direct: " + f.label()
                        : null);
    }

    /** Prints the top three by {@code key} (stable, highest first), each as {@code format} words it, if it does. */
    private void section(PrintWriter out, String title, ToDoubleFunction<Aggregate> key, Function<Aggregate, String> format) {
        PstatsTable.line(out, "");
        PstatsTable.line(out, title + ":");
        List<Aggregate> sorted = new ArrayList<>(functions);
        sorted.sort(Comparator.comparingDouble(key).reversed());
        for (Aggregate f : sorted.subList(0, Math.min(TOP, sorted.size()))) {
            String text = format.apply(f);
            if (text != null) {
                PstatsTable.line(out, "  " + text);
            }
        }
    }
}
