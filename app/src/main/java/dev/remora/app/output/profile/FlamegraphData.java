package dev.remora.app.output.profile;

import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.StackErrors;
import dev.remora.domain.profile.ThreadTable;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

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
 * absent, and the last field lists the node's samples for each thread that has any.
 */
final class FlamegraphData {

    private FlamegraphData() {}

    static String json(Profile profile, FlamegraphTree tree) {
        FlamegraphStrings strings = new FlamegraphStrings();
        strings.index("");
        // Nodes first: they fill the string table that is written before them.
        StringBuilder nodes = nodes(tree.preorder(), strings);
        StringBuilder out = new StringBuilder(nodes.length() + 4096);
        out.append("{\"meta\":");
        meta(profile, out);
        out.append(",\n\"threads\":");
        threads(profile.threads(), out);
        out.append(",\n\"strings\":[");
        List<String> table = strings.strings();
        for (int i = 0; i < table.size(); i++) {
            out.append(i == 0 ? "" : ",");
            FlamegraphJson.string(out, table.get(i));
        }
        out.append("],\n\"nodes\":[").append(nodes).append("]}");
        return out.toString();
    }

    private static StringBuilder nodes(List<FlamegraphTree.Node> preorder, FlamegraphStrings strings) {
        Map<FlamegraphTree.Node, Integer> index = new IdentityHashMap<>();
        StringBuilder out = new StringBuilder(preorder.size() * 40);
        for (FlamegraphTree.Node node : preorder) {
            index.put(node, index.size());
            FlamegraphCounts counts = node.counts;
            out.append(index.size() == 1 ? "\n[" : ",\n[")
                    .append(node.parent == null ? -1 : index.get(node.parent)).append(',')
                    .append(strings.index(node.function)).append(',')
                    .append(strings.index(node.file)).append(',')
                    .append(node.line).append(',')
                    .append(counts.totalSum()).append(',')
                    .append(counts.selfSum()).append(",[");
            for (int e = 0; e < counts.size(); e++) {
                out.append(e == 0 ? "" : ",")
                        .append(counts.thread(e)).append(',')
                        .append(counts.total(e)).append(',')
                        .append(counts.self(e));
            }
            out.append("],[");
            String sep = "";
            for (Map.Entry<String, Long> op : node.opcodes.entrySet()) {
                out.append(sep).append(strings.index(op.getKey())).append(',').append(op.getValue());
                sep = ",";
            }
            out.append("]]");
        }
        return out;
    }

    private static void meta(Profile profile, StringBuilder out) {
        ProfileInfo info = profile.info();
        SamplingStats stats = profile.stats();
        out.append("{\"pid\":").append(info.pid());
        out.append(",\"pythonVersion\":");
        optionalString(out, info.pythonVersion());
        out.append(",\"backend\":");
        optionalString(out, info.backend());
        out.append(",\"mode\":");
        optionalString(out, info.mode() == null ? null : info.mode().name().toLowerCase(Locale.ROOT));
        out.append(",\"intervalNanos\":").append(info.intervalNanos())
                .append(",\"startEpochMillis\":").append(info.startEpochMillis())
                .append(",\"samples\":").append(profile.samples().size())
                .append(",\"durationNanos\":").append(stats.elapsedNanos())
                .append(",\"ticks\":").append(stats.ticks())
                .append(",\"errors\":").append(stats.errors().total())
                .append(",\"errorReasons\":");
        errorReasons(out, stats.errors());
        out.append(",\"missed\":").append(stats.missed())
                .append(",\"achievedRate\":");
        FlamegraphJson.number(out, stats.achievedRate());
        out.append(",\"errorRate\":");
        FlamegraphJson.number(out, stats.errorRate());
        out.append('}');
    }

    /** {@code {"stack moved while read": 12, ...}}, most first. */
    private static void errorReasons(StringBuilder out, StackErrors errors) {
        out.append('{');
        String sep = "";
        for (StackProblem.Kind kind : errors.kinds()) {
            out.append(sep);
            FlamegraphJson.string(out, kind.label());
            out.append(':').append(errors.count(kind));
            sep = ",";
        }
        out.append('}');
    }

    private static void threads(ThreadTable threads, StringBuilder out) {
        out.append('[');
        for (int i = 0; i < threads.size(); i++) {
            ThreadTable.ProfiledThread thread = threads.get(i);
            out.append(i == 0 ? "{" : ",{")
                    .append("\"tid\":").append(thread.threadId())
                    .append(",\"interpreter\":").append(thread.interpreterId())
                    .append(",\"name\":");
            optionalString(out, thread.name().orElse(null));
            out.append('}');
        }
        out.append(']');
    }

    private static void optionalString(StringBuilder out, String s) {
        if (s == null) {
            out.append("null");
        } else {
            FlamegraphJson.string(out, s);
        }
    }
}
