package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.Python;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMode;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs CPython 3.15's own pstats and collapsed collectors (Tachyon) over the samples of a profile,
 * one thread stack at a time in sample order, as its sampler would have fed them.
 */
final class TachyonReplay {

    /** One table to print: sort order, row limit, whether to add the summary. */
    record Table(PstatsTable.SortKey sort, int limit, boolean summary) {
        /** CPython's SORT_MODE number: the enum order, and -1 for name. */
        int cpythonSortMode() {
            return sort == PstatsTable.SortKey.name ? -1 : sort.ordinal();
        }
    }

    /** What Tachyon made: the tables, each after a line "=== table", the marshalled stats and the collapsed file. */
    record Result(String tables, byte[] pstats, String collapsed) {}

    private TachyonReplay() {}

    static Result run(Python python315, Profile profile, List<Table> tables) {
        try {
            Map<String, Object> spec = new LinkedHashMap<>();
            spec.put("interval_usec", profile.info().intervalNanos() / 1000);
            spec.put("cpu_mode", profile.info().mode() == ProfileMode.CPU);
            spec.put("samples", samples(profile));
            spec.put("tables", tables.stream().map(t -> List.of(t.cpythonSortMode(), t.limit(), t.summary())).toList());
            spec.put("pstats_out", python315.pathSeen("tachyon.pstats"));
            spec.put("collapsed_out", python315.pathSeen("tachyon.collapsed"));
            String specPath = python315.put("spec.json", new ObjectMapper().writeValueAsBytes(spec));
            String tablesText = python315.run(script(), specPath);
            return new Result(tablesText, Files.readAllBytes(python315.hostPath("tachyon.pstats")),
                    Files.readString(python315.hostPath("tachyon.collapsed"), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Remora's tables for the same requests, laid out as {@link Result#tables()}. */
    static String remoraTables(Profile profile, List<Table> tables) {
        StringBuilder all = new StringBuilder();
        for (Table t : tables) {
            all.append("=== table\n").append(PstatsTableTest.print(new PstatsTable(t.sort(), t.limit(), t.summary(), PstatsRows.EXECUTING_LINES), profile));
        }
        return all.toString();
    }

    private static List<Map<String, Object>> samples(Profile profile) {
        CallTree tree = profile.tree();
        List<Map<String, Object>> samples = new ArrayList<>();
        for (int i = 0; i < profile.samples().size(); i++) {
            int node = profile.samples().node(i);
            int[] path = tree.path(node);
            List<Map<String, Object>> frames = new ArrayList<>();
            for (int d = path.length - 1; d >= 0; d--) {
                FrameInfo f = profile.frames().get(path[d]);
                Map<String, Object> frame = new LinkedHashMap<>();
                frame.put("file", f.file());
                frame.put("func", f.function());
                frame.put("loc", f.location().hasLine()
                        ? Arrays.asList(f.location().line(), f.location().endLine(), f.location().column(), f.location().endColumn())
                        : null);
                frames.add(frame);
            }
            samples.add(Map.of("tid", profile.threads().get(tree.threadIndex(node)).threadId(), "frames", frames));
        }
        return samples;
    }

    private static String script() throws IOException {
        try (InputStream in = TachyonReplay.class.getResourceAsStream("tachyon_replay.py")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
