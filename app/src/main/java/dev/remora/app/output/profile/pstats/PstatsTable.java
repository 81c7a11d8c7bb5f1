package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.PyText;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMode;

import java.io.PrintWriter;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The pstats table printed at the end of a profile, laid out and ordered as CPython 3.15's sampling
 * profiler prints it; in its own {@link TableStyle} or, for comparing the two line by line, in
 * CPython's exactly. Rows are functions (or functions at a line) after directories are stripped from
 * file names; the summary follows when asked for.
 */
public final class PstatsTable {

    /** The row orders of {@code --sort}, named as CPython's profiler names them. */
    public enum SortKey {
        nsamples("nsamples"),
        tottime("tottime"),
        cumtime("cumtime"),
        sample_pct("sample-pct"),
        cumul_pct("cumul-pct"),
        nsamples_cumul("nsamples-cumul"),
        name("name");

        private final String option;

        SortKey(String option) {
            this.option = option;
        }

        /** The spelling on the command line. */
        public String option() {
            return option;
        }

        /** The key spelled {@code option} on the command line; IllegalArgumentException for any other word. */
        public static SortKey fromOption(String option) {
            for (SortKey k : values()) {
                if (k.option.equals(option)) {
                    return k;
                }
            }
            throw new IllegalArgumentException("unknown sort key '" + option + "' (one of "
                    + Arrays.stream(values()).map(SortKey::option).collect(Collectors.joining(", ")) + ")");
        }

        /**
         * The order CPython applies. The percentage orders compare the same floating-point
         * percentages it compares, so that ties fall exactly where they fall there.
         */
        Comparator<SampledStats.Entry> order(long totalSamples) {
            return switch (this) {
                case nsamples -> Comparator.comparingLong((SampledStats.Entry e) -> e.direct).reversed();
                case tottime -> Comparator.comparingDouble((SampledStats.Entry e) -> e.tottime).reversed();
                case cumtime -> Comparator.comparingDouble((SampledStats.Entry e) -> e.cumtime).reversed();
                case sample_pct -> Comparator.comparingDouble((SampledStats.Entry e) -> percent(e.direct, totalSamples)).reversed();
                case cumul_pct -> Comparator.comparingDouble((SampledStats.Entry e) -> percent(e.cumulative, totalSamples)).reversed();
                case nsamples_cumul -> Comparator.comparingLong((SampledStats.Entry e) -> e.cumulative).reversed();
                case name -> (a, b) -> PyText.compare(a.key.pythonStr(), b.key.pythonStr());
            };
        }
    }

    public static final SortKey DEFAULT_SORT = SortKey.nsamples;
    public static final int DEFAULT_LIMIT = 15;

    private final SortKey sort;
    private final int limit;
    private final boolean summary;
    private final PstatsRows rows;
    private final TableStyle style;

    /** A table in CPython's style, in {@code sort} order with at most {@code limit} rows, followed by the summary. */
    public PstatsTable(SortKey sort, int limit) {
        this(sort, limit, true);
    }

    /**
     * @param limit rows to keep; as in CPython, where it is a Python slice bound, a negative limit
     *              drops that many rows from the end
     * @param summary whether to print the "Summary of Interesting Functions" (off with {@code --no-summary})
     */
    public PstatsTable(SortKey sort, int limit, boolean summary) {
        this(sort, limit, summary, PstatsRows.FUNCTIONS);
    }

    /** @param rows what one row stands for: a function, or a function at a line */
    public PstatsTable(SortKey sort, int limit, boolean summary, PstatsRows rows) {
        this(sort, limit, summary, rows, TableStyle.CPYTHON);
    }

    /** @param style how the table's times and summary read */
    public PstatsTable(SortKey sort, int limit, boolean summary, PstatsRows rows, TableStyle style) {
        this.sort = sort;
        this.limit = limit;
        this.summary = summary;
        this.rows = rows;
        this.style = style;
    }

    public void print(Profile profile, PrintWriter out) {
        SampledStats stats = SampledStats.of(profile, rows).stripDirs();
        if (stats.isEmpty()) {
            line(out, "No samples were collected.");
            if (profile.info().mode() == ProfileMode.CPU) {
                line(out, "This can happen in CPU mode when all threads are idle.");
            }
            out.flush();
            return;
        }
        List<SampledStats.Entry> rows = stats.entries();
        long total = rows.stream().mapToLong(e -> e.direct).sum();
        rows.sort(sort.order(total)); // List.sort is stable, as Python's sort is
        rows = rows.subList(0, sliceEnd(rows.size()));

        double maxTot = rows.stream().mapToDouble(e -> e.tottime).max().orElse(0);
        double maxCum = rows.stream().mapToDouble(e -> e.cumtime).max().orElse(0);
        TimeUnit tot = style == TableStyle.CPYTHON ? TimeUnit.forMax(maxTot) : TimeUnit.forMax(Math.max(maxTot, maxCum));
        TimeUnit cum = style == TableStyle.CPYTHON ? TimeUnit.forMax(maxCum) : tot;
        int decimals = style == TableStyle.CPYTHON ? 3 : tot.decimalsFor(profile.info().intervalNanos());
        String totHeader = "tottime (" + tot.name + ")";
        String cumHeader = "cumtime (" + cum.name + ")";
        int totWidth = Math.max(12, totHeader.length());
        int cumWidth = Math.max(12, cumHeader.length());

        line(out, "Profile Stats:");
        line(out, String.join("  ", PyText.right("nsamples", 15), PyText.right("sample%", 8), PyText.right(totHeader, totWidth),
                PyText.right("cumul%", 8), PyText.right(cumHeader, cumWidth), "filename:lineno(function)"));
        for (SampledStats.Entry e : rows) {
            line(out, String.join("  ",
                    PyText.right(e.direct + "/" + e.cumulative, 15),
                    PyText.right(PyText.fixed(percent(e.direct, total), 1), 8),
                    PyText.right(PyText.fixed(e.tottime * tot.scale, decimals), totWidth),
                    PyText.right(PyText.fixed(percent(e.cumulative, total), 1), 8),
                    PyText.right(PyText.fixed(e.cumtime * cum.scale, decimals), cumWidth),
                    e.key.label()));
        }
        line(out, "");
        line(out, "Legend:");
        line(out, "  nsamples: Direct/Cumulative samples (direct executing / on call stack)");
        line(out, "  sample%: Percentage of total samples this function was directly executing");
        line(out, "  tottime: Estimated total time spent directly in this function");
        line(out, "  cumul%: Percentage of total samples when this function was on the call stack");
        line(out, "  cumtime: Estimated cumulative time (including time in called functions)");
        line(out, "  filename:lineno(function): Function location and name");
        if (summary && !rows.isEmpty()) {
            new PstatsSummary(rows, total).print(out, style);
        }
        out.flush();
    }

    /** Where {@code rows[:limit]} ends in Python. */
    private int sliceEnd(int size) {
        return limit >= 0 ? Math.min(limit, size) : Math.max(0, size + limit);
    }

    /** {@code count / total * 100}, in the same floating-point steps as CPython, 0 without samples. */
    static double percent(long count, long total) {
        return total > 0 ? (double) count / total * 100 : 0;
    }

    /** Lines end in '\n' whatever the platform, like Python's print on POSIX. */
    static void line(PrintWriter out, String text) {
        out.print(text);
        out.print('\n');
    }

    /** The unit a time column is shown in, chosen from its largest value. */
    private record TimeUnit(String name, double scale) {
        static TimeUnit forMax(double seconds) {
            if (seconds >= 1.0) {
                return new TimeUnit("s", 1.0);
            }
            if (seconds >= 0.001) {
                return new TimeUnit("ms", 1000.0);
            }
            return new TimeUnit("\u03bcs", 1e6);
        }

        /** The decimals that show one sampling interval in this unit: what the samples can resolve. */
        int decimalsFor(long intervalNanos) {
            if (intervalNanos <= 0) {
                return 3; // no interval known (a capture that does not say): as CPython shows it
            }
            double interval = intervalNanos / 1e9 * scale;
            int decimals = 0;
            while (decimals < 6 && interval > 0 && interval < 0.999_999) {
                interval *= 10;
                decimals++;
            }
            return decimals;
        }
    }
}
