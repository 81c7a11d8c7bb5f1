package dev.remora.app.output.profile.speedscope;

import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.app.output.profile.SamplesByThread;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.FrameTable;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ThreadTable.ProfiledThread;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Locale;

/**
 * Writes speedscope's file format (https://www.speedscope.app/file-format-schema.json): the frames
 * once, then one "sampled" profile per thread whose samples are frame indexes, root first, each
 * weighing one sampling interval.
 */
public final class SpeedscopeWriter implements ProfileWriter {

    static final String SCHEMA = "https://www.speedscope.app/file-format-schema.json";

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        ProfileInfo info = profile.info();
        SamplesByThread byThread = SamplesByThread.of(profile);
        JsonWriter json = JsonWriter.utf8(out);
        json.beginObject();
        json.name("$schema").value(SCHEMA);
        json.name("exporter").value("remora");
        json.name("name").value("pid %d, Python %s, %s mode, %s".formatted(
                info.pid(), info.pythonVersion(), info.mode().name().toLowerCase(Locale.ROOT), profile.stats().describe()));
        int[] threads = byThread.sampledThreads();
        json.name("activeProfileIndex").value(byThread.mainThreadPosition(threads));
        json.name("shared").beginObject().name("frames");
        writeFrames(profile.frames(), json);
        json.endObject();
        json.name("profiles").beginArray();
        int[][] paths = new int[profile.tree().size()][];
        for (int t : threads) {
            writeThread(profile, byThread, t, paths, json);
        }
        json.endArray();
        json.endObject();
        json.flush();
    }

    private static void writeFrames(FrameTable frames, JsonWriter json) throws IOException {
        json.beginArray();
        for (int id = 0; id < frames.size(); id++) {
            FrameInfo frame = frames.get(id);
            json.beginObject().name("name").value(frame.function());
            // A pseudo frame's "~" names no file; speedscope would show it as one.
            if (!PseudoFrames.NATIVE.file().equals(frame.file())) {
                json.name("file").value(frame.file());
            }
            if (frame.location().hasLine()) {
                json.name("line").value(frame.location().line());
            }
            if (frame.location().hasColumn()) {
                // speedscope's columns are 1-based like its lines; CPython's start at 0.
                json.name("col").value(frame.location().column() + 1L);
            }
            json.endObject();
        }
        json.endArray();
    }

    private static void writeThread(Profile profile, SamplesByThread byThread, int thread, int[][] paths,
                                    JsonWriter json) throws IOException {
        ProfiledThread t = profile.threads().get(thread);
        long interval = profile.info().intervalNanos();
        int count = byThread.count(thread);
        json.beginObject();
        json.name("type").value("sampled");
        // A merged process tree: each thread's profile says its process first.
        json.name("name").value(t.processId().stream().mapToObj(pid -> "Process " + pid + ", ").findFirst().orElse("")
                + "Thread " + t.threadId() + t.name().map(n -> " [" + n + "]").orElse(""));
        json.name("unit").value("milliseconds");
        // speedscope lays samples end to end by weight, so the profile spans exactly their sum.
        json.name("startValue").value(0);
        json.name("endValue").millis(interval * count);
        json.name("samples").beginArray();
        CallTree tree = profile.tree();
        for (int k = 0; k < count; k++) {
            int node = profile.samples().node(byThread.sample(thread, k));
            if (paths[node] == null) {
                paths[node] = tree.path(node);
            }
            json.beginArray();
            for (int frame : paths[node]) {
                json.value(frame);
            }
            json.endArray();
        }
        json.endArray();
        json.name("weights").beginArray();
        for (int k = 0; k < count; k++) {
            json.millis(interval);
        }
        json.endArray();
        json.endObject();
    }
}
