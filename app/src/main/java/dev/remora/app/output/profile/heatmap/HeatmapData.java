package dev.remora.app.output.profile.heatmap;

import dev.remora.app.output.json.JsonEscaping;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a heatmap page embeds: per sampled file its samples, per line the samples that were on it
 * (own: the line running; total: the line anywhere on the stack, once per sample), its functions
 * with the line to jump to, and its source where it could be read:
 *
 * <pre>
 * {"meta": {pid, pythonVersion, mode, startEpochMillis, durationNanos, samples, ticks, errors, errorReasons: "2 stack moved while read" or ""},
 *  "files": [{path, samples, lines: [[line, own, total], ...], functions: [[name, line, own, total], ...],
 *             source: ["first line", ...] or null}, ...]}   // files by samples, most first
 * </pre>
 */
final class HeatmapData {

    private HeatmapData() {}

    private static final class FileCounts {
        final Map<Integer, long[]> lines = new TreeMap<>();
        final Map<String, long[]> functions = new LinkedHashMap<>(); // name -> [first line, own, total]
        long samples;
    }

    static String json(Profile profile, HeatmapSources sources) {
        Map<String, FileCounts> files = count(profile);
        List<Map.Entry<String, FileCounts>> ordered = new ArrayList<>(files.entrySet());
        ordered.sort(Comparator.comparingLong((Map.Entry<String, FileCounts> e) -> e.getValue().samples).reversed()
                .thenComparing(Map.Entry::getKey));
        ProfileInfo info = profile.info();
        return JsonWriter.text(JsonEscaping.HTML_SCRIPT, json -> {
            json.beginObject().name("meta").beginObject().name("pid").value(info.pid())
                    .name("pythonVersion").value(info.pythonVersion())
                    .name("mode").value(info.mode().name().toLowerCase(Locale.ROOT))
                    .name("startEpochMillis").value(info.startEpochMillis())
                    .name("durationNanos").value(profile.stats().elapsedNanos())
                    .name("samples").value(profile.samples().total())
                    .name("ticks").value(profile.stats().ticks())
                    .name("errors").value(profile.stats().errors().total())
                    .name("errorReasons").value(profile.stats().errors().total() == 0 ? "" : profile.stats().errors().describe())
                    .endObject();
            json.name("files").beginArray();
            for (Map.Entry<String, FileCounts> e : ordered) {
                file(json, e.getKey(), e.getValue(), sources.lines(e.getKey()));
            }
            json.endArray().endObject();
        });
    }

    private static void file(JsonWriter json, String path, FileCounts counts, Optional<List<String>> source) throws IOException {
        json.beginObject().name("path").value(path).name("samples").value(counts.samples).name("lines").beginArray();
        for (Map.Entry<Integer, long[]> line : counts.lines.entrySet()) {
            json.beginArray().value(line.getKey()).value(line.getValue()[0]).value(line.getValue()[1]).endArray();
        }
        json.endArray().name("functions").beginArray();
        List<Map.Entry<String, long[]>> functions = new ArrayList<>(counts.functions.entrySet());
        functions.sort(Comparator.comparingLong((Map.Entry<String, long[]> f) -> f.getValue()[2]).reversed());
        for (Map.Entry<String, long[]> f : functions) {
            json.beginArray().value(f.getKey()).value(f.getValue()[0]).value(f.getValue()[1]).value(f.getValue()[2]).endArray();
        }
        json.endArray().name("source");
        if (source.isPresent()) {
            json.beginArray();
            for (String line : source.get()) {
                json.value(line);
            }
            json.endArray();
        } else {
            json.nullValue();
        }
        json.endObject();
    }

    /** Own and total samples per file, line and function, from each distinct stack once. */
    private static Map<String, FileCounts> count(Profile profile) {
        Map<String, FileCounts> files = new LinkedHashMap<>();
        CallTree tree = profile.tree();
        long[] perNode = profile.countsPerNode();
        Set<String> seenFiles = new HashSet<>();
        record LineKey(FileCounts file, int line) {}
        Set<LineKey> seenLines = new HashSet<>();
        Set<String> seenFunctions = new HashSet<>();
        for (int node = 0; node < perNode.length; node++) {
            long n = perNode[node];
            if (n == 0) {
                continue;
            }
            int[] path = tree.path(node);
            seenFiles.clear();
            seenLines.clear();
            seenFunctions.clear();
            for (int i = 0; i < path.length; i++) {
                FrameInfo frame = profile.frames().get(path[i]);
                if (frame.file().isEmpty() || frame.file().equals("~") || !frame.location().hasLine()) {
                    continue;
                }
                FileCounts file = files.computeIfAbsent(frame.file(), f -> new FileCounts());
                int line = frame.location().line();
                boolean innermost = i == path.length - 1;
                if (seenFiles.add(frame.file())) {
                    file.samples += n;
                }
                long[] lineCounts = file.lines.computeIfAbsent(line, l -> new long[2]);
                if (seenLines.add(new LineKey(file, line))) {
                    lineCounts[1] += n;
                }
                long[] f = file.functions.computeIfAbsent(frame.function(), k -> new long[] {line, 0, 0});
                f[0] = Math.min(f[0], line);
                if (seenFunctions.add(frame.file() + "\u0000" + frame.function())) {
                    f[2] += n;
                }
                if (innermost) {
                    lineCounts[0] += n;
                    f[1] += n;
                }
            }
        }
        return files;
    }
}
