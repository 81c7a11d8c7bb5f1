package dev.remora.app.output.profile.flamegraph;

import dev.remora.app.output.json.JsonEscaping;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.StackErrors;
import dev.remora.domain.profile.ThreadTable;

import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON a flamegraph page embeds:
 *
 * <pre>
 * {"meta": {pid, pythonVersion, backend, mode, intervalNanos, startEpochMillis, samples, durationNanos,
 *           ticks, errors, errorReasons {reason: count}, missed, achievedRate, errorRate},
 *  "threads": [{tid, interpreter, name}],          // indexed by the profile's thread index
 *  "strings": ["", ...],                           // the string table
 *  "nodes": [[parent, function, file, line, total, self, [thread, total, self, ...],
 *             [opcode name, samples, ...]], ...]}
 * </pre>
 *
 * Nodes come in preorder (a parent before its children), node 0 is the root of all threads, parent
 * is a node index (-1 for the root), function and file index the string table, line is -1 where
 * absent ({@value #C_FRAME_LINE} for a C frame, whose file is its library), and the last field lists the node's samples for each thread that has any.
 *
 * <p>A differential flamegraph adds {@code "baseline": {name, samples, nodes: [[parent, function,
 * file, line, total, self], ...]}}: the baseline profile's tree, its strings in the same table.
 */
final class FlamegraphData {

    private FlamegraphData() {}

    /** The line of a C frame's node: it has none, and is drawn apart from Python's. */
    static final int C_FRAME_LINE = -2;

    /** A profile drawn against this baseline, named as the user named it. */
    record Baseline(String name, long samples, FlamegraphTree tree) {}

    /** The data, safe inside the page's script element. */
    static String json(Profile profile, FlamegraphTree tree, Optional<Baseline> baseline) {
        List<FlamegraphTree.Node> preorder = tree.preorder();
        List<FlamegraphTree.Node> basePreorder = baseline.map(b -> b.tree().preorder()).orElse(List.of());
        FlamegraphStrings strings = strings(preorder);
        for (FlamegraphTree.Node node : basePreorder) {
            strings.index(node.function);
            strings.index(node.file);
        }
        return JsonWriter.text(JsonEscaping.HTML_SCRIPT, json -> {
            json.beginObject().name("meta");
            meta(profile, json);
            json.name("threads");
            threads(profile.threads(), json);
            json.name("strings").beginArray();
            for (String s : strings.strings()) {
                json.value(s);
            }
            json.endArray().name("nodes");
            nodes(preorder, strings, Detail.PER_THREAD, json);
            if (baseline.isPresent()) {
                json.name("baseline").beginObject().name("name").value(baseline.get().name())
                        .name("samples").value(baseline.get().samples()).name("nodes");
                nodes(basePreorder, strings, Detail.TOTALS, json);
                json.endObject();
            }
            json.endObject();
        });
    }

    /** The string table, filled ahead of the nodes that refer to it, in the order they come. */
    private static FlamegraphStrings strings(List<FlamegraphTree.Node> preorder) {
        FlamegraphStrings strings = new FlamegraphStrings();
        strings.index("");
        for (FlamegraphTree.Node node : preorder) {
            strings.index(node.function);
            strings.index(node.file);
            node.opcodes.keySet().forEach(strings::index);
        }
        return strings;
    }

    /** How much a node row says: a baseline's rows stop at the totals (its threads are another run's). */
    private enum Detail { PER_THREAD, TOTALS }

    private static void nodes(List<FlamegraphTree.Node> preorder, FlamegraphStrings strings, Detail detail, JsonWriter json)
            throws IOException {
        Map<FlamegraphTree.Node, Integer> index = new IdentityHashMap<>();
        json.beginArray();
        for (FlamegraphTree.Node node : preorder) {
            index.put(node, index.size());
            FlamegraphCounts counts = node.counts;
            json.beginArray()
                    .value(node.parent == null ? -1 : index.get(node.parent))
                    .value(strings.index(node.function))
                    .value(strings.index(node.file))
                    .value(node.line)
                    .value(counts.totalSum())
                    .value(counts.selfSum());
            if (detail == Detail.TOTALS) {
                json.endArray();
                continue;
            }
            json.beginArray();
            for (int e = 0; e < counts.size(); e++) {
                json.value(counts.thread(e)).value(counts.total(e)).value(counts.self(e));
            }
            json.endArray().beginArray();
            for (Map.Entry<String, Long> op : node.opcodes.entrySet()) {
                json.value(strings.index(op.getKey())).value(op.getValue());
            }
            json.endArray().endArray();
        }
        json.endArray();
    }

    private static void meta(Profile profile, JsonWriter json) throws IOException {
        ProfileInfo info = profile.info();
        SamplingStats stats = profile.stats();
        json.beginObject()
                .name("pid").value(info.pid())
                .name("pythonVersion").value(info.pythonVersion())
                .name("backend").value(info.backend())
                .name("mode").value(info.mode() == null ? null : info.mode().name().toLowerCase(Locale.ROOT))
                .name("intervalNanos").value(info.intervalNanos())
                .name("startEpochMillis").value(info.startEpochMillis())
                .name("samples").value(profile.samples().total())
                .name("durationNanos").value(stats.elapsedNanos())
                .name("ticks").value(stats.ticks())
                .name("errors").value(stats.errors().total())
                .name("errorReasons");
        errorReasons(json, stats.errors());
        json.name("missed").value(stats.missed())
                .name("achievedRate").value(stats.achievedRate())
                .name("errorRate").value(stats.errorRate())
                .endObject();
    }

    /** {@code {"stack moved while read": 12, ...}}, most first. */
    private static void errorReasons(JsonWriter json, StackErrors errors) throws IOException {
        json.beginObject();
        for (StackProblem.Kind kind : errors.kinds()) {
            json.name(kind.label()).value(errors.count(kind));
        }
        json.endObject();
    }

    private static void threads(ThreadTable threads, JsonWriter json) throws IOException {
        json.beginArray();
        for (int i = 0; i < threads.size(); i++) {
            ThreadTable.ProfiledThread thread = threads.get(i);
            json.beginObject()
                    .name("tid").value(thread.threadId())
                    .name("interpreter").value(thread.interpreterId())
                    .name("name").value(thread.name().orElse(null))
                    .endObject();
        }
        json.endArray();
    }
}
