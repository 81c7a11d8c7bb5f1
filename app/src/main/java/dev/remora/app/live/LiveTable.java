package dev.remora.app.live;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.SampleLog;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the live view counts, per thread and per function: samples the function was running in
 * (own) and samples it was anywhere on the stack (total), over the last window and since the start.
 * Filled on the sampling thread, window by window; the screen reads copies of it.
 */
public final class LiveTable {

    /** A function as the view lists it: its name and file, all its lines together. */
    public record Function(String name, String file) {}

    /** Own and total samples of one function. */
    public static final class Counts {
        long own;
        long total;

        Counts copy() {
            Counts c = new Counts();
            c.own = own;
            c.total = total;
            return c;
        }
    }

    /** One thread's counts: the last window's and all of them. */
    public record ThreadCounts(long threadId, String name, long windowSamples, long allSamples,
                        Map<Function, Counts> window, Map<Function, Counts> all) {

        /** These counts with the whole run as their window: the percentages a summary of the run shows. */
        public ThreadCounts wholeRun() {
            return new ThreadCounts(threadId, name, allSamples, allSamples, all, all);
        }
    }

    private final Map<Integer, Map<Function, Counts>> window = new HashMap<>();
    private final Map<Integer, Map<Function, Counts>> all = new HashMap<>();
    private final Map<Integer, long[]> samples = new HashMap<>(); // per thread: [window, all]

    /** Adds samples {@code [from, to)}; a new window begins with them. */
    public void add(Profile profile, int from, int to) {
        window.clear();
        samples.values().forEach(n -> n[0] = 0);
        SampleLog log = profile.samples();
        CallTree tree = profile.tree();
        Map<Integer, Integer> perNode = new HashMap<>();
        for (int s = from; s < to; s++) {
            perNode.merge(log.node(s), log.weight(s), Integer::sum);
        }
        Set<Function> seen = new HashSet<>();
        for (Map.Entry<Integer, Integer> e : perNode.entrySet()) {
            int node = e.getKey();
            int n = e.getValue();
            int thread = tree.threadIndex(node);
            long[] count = samples.computeIfAbsent(thread, t -> new long[2]);
            count[0] += n;
            count[1] += n;
            int[] path = tree.path(node);
            if (path.length == 0) {
                continue;
            }
            seen.clear();
            for (int i = 0; i < path.length; i++) {
                FrameInfo frame = profile.frames().get(path[i]);
                Function f = new Function(frame.function(), frame.file());
                boolean innermost = i == path.length - 1;
                boolean first = seen.add(f); // a recursive function counts once per sample in total
                for (Map<Integer, Map<Function, Counts>> into : List.of(window, all)) {
                    Counts c = into.computeIfAbsent(thread, t -> new HashMap<>()).computeIfAbsent(f, k -> new Counts());
                    if (first) {
                        c.total += n;
                    }
                    if (innermost) {
                        c.own += n;
                    }
                }
            }
        }
    }

    /** A copy of every thread's counts, for the screen. */
    public List<ThreadCounts> snapshot(Profile profile) {
        return samples.entrySet().stream().map(e -> {
            var thread = profile.threads().get(e.getKey());
            return new ThreadCounts(thread.threadId(), thread.name().orElse(""), e.getValue()[0], e.getValue()[1],
                    copy(window.getOrDefault(e.getKey(), Map.of())), copy(all.getOrDefault(e.getKey(), Map.of())));
        }).sorted(java.util.Comparator.comparingLong(ThreadCounts::threadId)).toList();
    }

    private static Map<Function, Counts> copy(Map<Function, Counts> from) {
        Map<Function, Counts> out = new HashMap<>();
        from.forEach((k, v) -> out.put(k, v.copy()));
        return out;
    }
}
