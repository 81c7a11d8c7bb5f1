package dev.remora.app.live;

import dev.remora.app.live.LiveTable.Counts;
import dev.remora.app.live.LiveTable.Function;
import dev.remora.app.live.LiveTable.ThreadCounts;
import dev.remora.domain.walk.SnapshotOptions;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The live view's text, for a screen of a given size: a header (process, rate, errors, elapsed
 * time, the keys), then one line per function, sorted as chosen. Percentages are of the last
 * window's samples (what the target does now); times add up every sample since the start.
 */
public final class LiveScreen {

    /** The columns the view sorts by, keys 1 to 5. */
    public enum Sort {
        OWN("%Own"), TOTAL("%Total"), OWN_TIME("OwnTime"), TOTAL_TIME("TotalTime"), FUNCTION("Function");

        final String title;

        Sort(String title) {
            this.title = title;
        }
    }

    /**
     * What the header says of the sampling.
     *
     * @param errorReasons why ticks gave no stack, as {@code "2 stack moved while read"}; empty without errors
     */
    public record Header(int pid, String python, String mode, double elapsedSeconds, double rate, double errorPercent, long samples,
                         String errorReasons, SnapshotOptions.Threads sampled) {}

    /** The line that lists the keys: left out where they no longer work. */
    public static final int KEYS_LINE = 1;

    /** The user's choices: sort column, thread shown (-1: all), paused. */
    public record View(Sort sort, int thread, boolean paused) {}

    private LiveScreen() {}

    public static List<String> lines(Header h, List<ThreadCounts> threads, View view, long intervalNanos, int width, int height) {
        List<String> out = new ArrayList<>();
        String shown = view.thread() < 0 || view.thread() >= threads.size()
                ? (h.sampled() == SnapshotOptions.Threads.ALL ? "all threads" : "main thread")
                : "thread " + threads.get(view.thread()).threadId() + name(threads.get(view.thread()));
        // Who and what on the first line, the run's figures on the third: each fits 80 columns, and
        // "[paused]" is never the part a narrow screen cuts off.
        out.add(String.format(Locale.ROOT, "Remora top%s  pid %d  Python %s  %s mode  %s", view.paused() ? "  [paused]" : "",
                h.pid(), h.python(), h.mode(), shown));
        out.add("Keys: 1-5 sort  t thread  p pause  q quit    sorted by " + view.sort().title);
        // One thread shown: its own samples, of all the run's, so that the header counts what the table does.
        String samples = view.thread() < 0 || view.thread() >= threads.size() ? Long.toString(h.samples())
                : threads.get(view.thread()).allSamples() + " of " + h.samples();
        out.add(String.format(Locale.ROOT, "Sampled: elapsed %.0fs  rate %.0f Hz  samples %s  errors %.2f%%%s",
                h.elapsedSeconds(), h.rate(), samples, h.errorPercent(),
                h.errorReasons().isEmpty() ? "" : "  (" + h.errorReasons() + ")"));
        out.add(String.format(Locale.ROOT, "%8s %8s %10s %10s  %s", "%Own", "%Total", "OwnTime", "TotalTime", "Function (file)"));
        Map<Function, Counts> window = new HashMap<>();
        Map<Function, Counts> all = new HashMap<>();
        long windowSamples = 0;
        for (int t = 0; t < threads.size(); t++) {
            if (view.thread() >= 0 && view.thread() != t) {
                continue;
            }
            windowSamples += threads.get(t).windowSamples();
            merge(window, threads.get(t).window());
            merge(all, threads.get(t).all());
        }
        List<Function> functions = new ArrayList<>(all.keySet());
        Comparator<Function> order = switch (view.sort()) {
            case OWN -> Comparator.comparingLong((Function f) -> own(window, f)).reversed();
            case TOTAL -> Comparator.comparingLong((Function f) -> total(window, f)).reversed();
            case OWN_TIME -> Comparator.comparingLong((Function f) -> own(all, f)).reversed();
            case TOTAL_TIME -> Comparator.comparingLong((Function f) -> total(all, f)).reversed();
            case FUNCTION -> Comparator.comparing(Function::name);
        };
        functions.sort(order.thenComparing(f -> -total(all, f)).thenComparing(Function::name).thenComparing(Function::file));
        for (Function f : functions) {
            if (out.size() >= height) {
                break;
            }
            out.add(String.format(Locale.ROOT, "%7.2f%% %7.2f%% %9.2fs %9.2fs  %s (%s)",
                    percent(own(window, f), windowSamples), percent(total(window, f), windowSamples),
                    own(all, f) * intervalNanos / 1e9, total(all, f) * intervalNanos / 1e9, f.name(), basename(f.file())));
        }
        return out.stream().map(line -> line.length() > width ? line.substring(0, Math.max(0, width)) : line).toList();
    }

    private static void merge(Map<Function, Counts> into, Map<Function, Counts> from) {
        from.forEach((f, c) -> {
            Counts sum = into.computeIfAbsent(f, k -> new Counts());
            sum.own += c.own;
            sum.total += c.total;
        });
    }

    private static long own(Map<Function, Counts> counts, Function f) {
        Counts c = counts.get(f);
        return c == null ? 0 : c.own;
    }

    private static long total(Map<Function, Counts> counts, Function f) {
        Counts c = counts.get(f);
        return c == null ? 0 : c.total;
    }

    private static double percent(long part, long whole) {
        return whole == 0 ? 0 : 100.0 * part / whole;
    }

    private static String name(ThreadCounts t) {
        return t.name().isEmpty() ? "" : " [" + t.name() + "]";
    }

    private static String basename(String file) {
        return file.substring(file.lastIndexOf('/') + 1);
    }
}
