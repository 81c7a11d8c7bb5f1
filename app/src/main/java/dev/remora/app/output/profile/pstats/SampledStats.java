package dev.remora.app.output.profile.pstats;

import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.SampleLog;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A profile as pstats sees it: per {@link PstatsKey}, the samples where it was the leaf (direct), the
 * samples where it was anywhere on the stack (cumulative, once per stack however deep the recursion),
 * those two as times, and who called it how often. Keys keep the order in which CPython's profiler
 * first meets them (samples in order, each stack from its leaf outwards), because the table's sort
 * is stable and ties keep that order.
 */
final class SampledStats {

    /** One key's numbers; {@code callers} maps a caller's key to the samples in which it called this one. */
    static final class Entry {
        final PstatsKey key;
        long direct;
        long cumulative;
        double tottime;
        double cumtime;
        final Map<PstatsKey, Long> callers = new LinkedHashMap<>();
        private int lastStack = -1;

        Entry(PstatsKey key) {
            this.key = key;
        }
    }

    private final Map<PstatsKey, Entry> entries;

    private SampledStats(Map<PstatsKey, Entry> entries) {
        this.entries = entries;
    }

    /** The stats of every sample of a profile, all threads together, a key standing for {@code rows}. */
    static SampledStats of(Profile profile, PstatsRows rows) {
        Map<PstatsKey, Entry> entries = new LinkedHashMap<>();
        CallTree tree = profile.tree();
        SampleLog samples = profile.samples();
        long[] counts = profile.countsPerNode();
        boolean[] done = new boolean[tree.size()];
        Entry[] byFrame = new Entry[profile.frames().size()];
        // Each distinct stack is counted once with its weight; visiting stacks at their first sample
        // keeps the order of first appearance that counting every sample would give.
        for (int i = 0; i < samples.size(); i++) {
            int node = samples.node(i);
            if (done[node]) {
                continue;
            }
            done[node] = true;
            int[] path = tree.path(node);
            Entry[] stack = new Entry[path.length];
            for (int depth = path.length - 1, k = 0; depth >= 0; depth--, k++) {
                int frame = path[depth];
                if (byFrame[frame] == null) {
                    PstatsKey key = PstatsKey.of(profile.frames().get(frame), rows);
                    byFrame[frame] = entries.computeIfAbsent(key, Entry::new);
                }
                stack[k] = byFrame[frame];
            }
            add(stack, node, counts[node]);
        }
        double intervalSeconds = profile.info().intervalNanos() / 1e9;
        for (Entry e : entries.values()) {
            e.tottime = e.direct * intervalSeconds;
            e.cumtime = e.cumulative * intervalSeconds;
        }
        return new SampledStats(entries);
    }

    /** Counts one stack ({@code stack[0]} the leaf) seen {@code weight} times. */
    private static void add(Entry[] stack, int stackId, long weight) {
        if (stack.length == 0) {
            return;
        }
        for (Entry e : stack) {
            if (e.lastStack != stackId) {
                e.lastStack = stackId;
                e.cumulative += weight;
            }
        }
        stack[0].direct += weight;
        for (int i = 1; i < stack.length; i++) {
            stack[i - 1].callers.merge(stack[i].key, weight, Long::sum);
        }
    }

    /**
     * {@code pstats.Stats.strip_dirs()}: file names lose their directories and keys that become equal
     * are added up. As in pstats, within one callers map a later caller that becomes equal replaces
     * an earlier one instead of adding to it.
     */
    SampledStats stripDirs() {
        Map<PstatsKey, Entry> stripped = new LinkedHashMap<>();
        for (Entry old : entries.values()) {
            Map<PstatsKey, Long> callers = new LinkedHashMap<>();
            old.callers.forEach((caller, count) -> callers.put(caller.stripDirs(), count));
            Entry target = stripped.computeIfAbsent(old.key.stripDirs(), Entry::new);
            target.direct += old.direct;
            target.cumulative += old.cumulative;
            target.tottime += old.tottime;
            target.cumtime += old.cumtime;
            callers.forEach((caller, count) -> target.callers.merge(caller, count, Long::sum));
        }
        return new SampledStats(stripped);
    }

    /** Every entry, in order of first appearance. */
    List<Entry> entries() {
        return new ArrayList<>(entries.values());
    }

    boolean isEmpty() {
        return entries.isEmpty();
    }
}
