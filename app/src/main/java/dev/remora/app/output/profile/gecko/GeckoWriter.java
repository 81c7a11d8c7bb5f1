package dev.remora.app.output.profile.gecko;

import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.app.output.profile.SamplesByThread;
import dev.remora.app.output.profile.StringTable;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.SampleLog;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.ThreadTable.ProfiledThread;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Locale;

/**
 * Writes the Firefox Profiler's processed profile format, laid out as CPython 3.15's own gecko
 * collector writes it (format version 32, processed version 57), so the profiler opens both alike:
 * one thread per profiled thread with its own stack, frame, func and resource tables, one string
 * table for all, and interval markers for the threads' GIL, CPU, exception and GC states.
 */
public final class GeckoWriter implements ProfileWriter {

    static final int FORMAT_VERSION = 32;
    static final int PROCESSED_VERSION = 57;

    /** Category names and colours, in the order (and so with the indexes) CPython uses. */
    static final List<String[]> CATEGORIES = List.of(
            new String[] {"Other", "grey"},
            new String[] {"Python", "yellow"},
            new String[] {"Native", "blue"},
            new String[] {"GC", "orange"},
            new String[] {"GIL", "green"},
            new String[] {"CPU", "purple"},
            new String[] {"Code Type", "red"},
            new String[] {"Opcodes", "magenta"},
            new String[] {"Exception", "lightblue"});

    /** Marker phase of a marker with a start and an end. */
    private static final int PHASE_INTERVAL = 1;

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        StringTable strings = new StringTable();
        SamplesByThread byThread = SamplesByThread.of(profile);
        JsonWriter json = JsonWriter.utf8(out);
        json.beginObject();
        json.name("meta");
        writeMeta(profile, json);
        json.name("libs").beginArray().endArray();
        json.name("threads").beginArray();
        boolean[] collectingGarbage = collectingGarbage(profile);
        // A sample stands for the interval it starts, so states seen at the last sample last until
        // one interval after it (CPython ends them at the last sample, as markers of no length).
        long end = profile.samples().lastTime() + achievedIntervalNanos(profile);
        int[][] nodes = GeckoThreadTables.nodesByThread(profile.tree(), profile.threads().size());
        int[] stackOfNode = new int[profile.tree().size()];
        for (int t : byThread.sampledThreads()) {
            GeckoThreadTables tables = GeckoThreadTables.of(profile, nodes[t], strings, stackOfNode);
            writeThread(profile, t, tables, byThread, collectingGarbage, end, strings, json);
        }
        json.endArray();
        json.name("pages").beginArray().endArray();
        json.name("shared").beginObject();
        json.name("stringArray").beginArray();
        for (String s : strings.strings()) {
            json.value(s);
        }
        json.endArray();
        json.name("sources").beginObject()
                .name("length").value(0)
                .name("uuid").beginArray().endArray()
                .name("filename").beginArray().endArray()
                .endObject();
        json.endObject();
        json.endObject();
        json.flush();
    }

    private static void writeMeta(Profile profile, JsonWriter json) throws IOException {
        ProfileInfo info = profile.info();
        String arch = System.getProperty("os.arch");
        int cpus = Runtime.getRuntime().availableProcessors();
        json.beginObject();
        json.name("interval").millis(achievedIntervalNanos(profile));
        json.name("startTime").value(info.startEpochMillis());
        json.name("abi").value(arch);
        json.name("misc").value("remora sampling profiler (" + info.backend() + ", "
                + info.mode().name().toLowerCase(Locale.ROOT) + " mode; " + profile.stats().describe() + ")");
        json.name("oscpu").value(arch);
        json.name("platform").value("Linux");
        json.name("processType").value(0);
        json.name("categories").beginArray();
        for (String[] category : CATEGORIES) {
            json.beginObject().name("name").value(category[0]).name("color").value(category[1])
                    .name("subcategories").beginArray().value("Other").endArray().endObject();
        }
        json.endArray();
        json.name("stackwalk").value(0);
        json.name("toolkit").value("");
        json.name("version").value(FORMAT_VERSION);
        json.name("preprocessedProfileVersion").value(PROCESSED_VERSION);
        json.name("appBuildID").value("");
        json.name("physicalCPUs").value(cpus);
        json.name("logicalCPUs").value(cpus);
        json.name("CPUName").value("");
        json.name("product").value("Python");
        json.name("symbolicated").value(true);
        json.name("markerSchema").beginArray().endArray();
        json.name("importedFrom").value("remora");
        json.name("extensions").beginObject()
                .name("id").beginArray().endArray()
                .name("name").beginArray().endArray()
                .name("baseURL").beginArray().endArray()
                .name("length").value(0)
                .endObject();
        json.endObject();
    }

    /**
     * The time between samples as achieved: the profiler draws each sample that wide, and a sampler
     * that fell behind took them further apart than asked.
     */
    static long achievedIntervalNanos(Profile profile) {
        SamplingStats stats = profile.stats();
        if (stats.ticks() > 1 && stats.elapsedNanos() > 0) {
            return stats.elapsedNanos() / (stats.ticks() - 1);
        }
        return profile.info().intervalNanos();
    }

    private static void writeThread(Profile profile, int thread, GeckoThreadTables tables,
                                    SamplesByThread byThread, boolean[] collectingGarbage, long endNanos,
                                    StringTable strings, JsonWriter json) throws IOException {
        ProfiledThread t = profile.threads().get(thread);
        json.beginObject();
        json.name("name").value("Thread-" + t.threadId() + t.name().map(n -> " [" + n + "]").orElse(""));
        json.name("isMainThread").value(byThread.isMain(thread));
        json.name("processStartupTime").value(0);
        json.name("processShutdownTime").nullValue();
        json.name("registerTime").value(0);
        json.name("unregisterTime").nullValue();
        json.name("pausedRanges").beginArray().endArray();
        // The profiled process, not the profiler: the profile describes the target.
        // A merged process tree: each thread under its own process, which the Profiler shows as one each.
        json.name("pid").value(Integer.toString(t.processId().orElse(profile.info().pid())));
        json.name("tid").value(t.threadId());
        json.name("processType").value("default");
        json.name("processName").value("Python " + profile.info().pythonVersion());

        SampleLog log = profile.samples();
        GeckoMarkers markers = new GeckoMarkers();
        int count = byThread.count(thread);
        json.name("samples").beginObject();
        json.name("stack").beginArray();
        for (int k = 0; k < count; k++) {
            json.value(tables.stack(log.node(byThread.sample(thread, k))));
        }
        json.endArray();
        json.name("time").beginArray();
        for (int k = 0; k < count; k++) {
            int sample = byThread.sample(thread, k);
            json.millis(log.time(sample));
            markers.observe(log.status(sample), collectingGarbage[log.node(sample)], log.time(sample));
        }
        json.endArray();
        json.name("eventDelay").beginArray();
        for (int k = 0; k < count; k++) {
            json.nullValue();
        }
        json.endArray();
        json.name("weight").nullValue();
        json.name("weightType").value("samples");
        json.name("length").value(count);
        json.endObject();

        json.name("stackTable");
        tables.writeStackTable(json);
        json.name("frameTable");
        tables.writeFrameTable(json);
        json.name("funcTable");
        tables.writeFuncTable(json);
        json.name("resourceTable");
        tables.writeResourceTable(json);
        json.name("nativeSymbols").beginObject()
                .name("libIndex").beginArray().endArray()
                .name("address").beginArray().endArray()
                .name("name").beginArray().endArray()
                .name("functionSize").beginArray().endArray()
                .name("length").value(0)
                .endObject();
        json.name("markers");
        writeMarkers(markers.finish(endNanos), t.threadId(), strings, json);
        json.endObject();
    }

    private static void writeMarkers(List<GeckoMarkers.Marker> markers, long tid, StringTable strings,
                                     JsonWriter json) throws IOException {
        json.beginObject();
        json.name("data").beginArray();
        for (GeckoMarkers.Marker m : markers) {
            json.beginObject()
                    .name("type").value(m.name().replace(" ", ""))
                    .name("duration").millis(m.endNanos() - m.startNanos())
                    .name("tid").value(tid)
                    .endObject();
        }
        json.endArray();
        json.name("name").beginArray();
        for (GeckoMarkers.Marker m : markers) {
            json.value(strings.intern(m.name()));
        }
        json.endArray();
        json.name("startTime").beginArray();
        for (GeckoMarkers.Marker m : markers) {
            json.millis(m.startNanos());
        }
        json.endArray();
        json.name("endTime").beginArray();
        for (GeckoMarkers.Marker m : markers) {
            json.millis(m.endNanos());
        }
        json.endArray();
        json.name("phase").beginArray();
        for (int i = 0; i < markers.size(); i++) {
            json.value(PHASE_INTERVAL);
        }
        json.endArray();
        json.name("category").beginArray();
        for (GeckoMarkers.Marker m : markers) {
            json.value(m.category());
        }
        json.endArray();
        json.name("length").value(markers.size());
        json.endObject();
    }

    /** Per call-tree node: whether its stack holds a {@code <GC>} frame, i.e. a collection is running. */
    private static boolean[] collectingGarbage(Profile profile) {
        CallTree tree = profile.tree();
        boolean[] gc = new boolean[tree.size()];
        for (int node = 0; node < tree.size(); node++) {
            // Parents come before children in the tree, so the parent's answer is already known.
            if (!tree.isRoot(node)) {
                gc[node] = gc[tree.parent(node)] || PseudoFrames.GC.equals(profile.frames().get(tree.frame(node)));
            }
        }
        return gc;
    }

}
