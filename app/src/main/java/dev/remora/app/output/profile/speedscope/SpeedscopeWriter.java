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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalInt;
import java.util.stream.IntStream;

/**
 * Writes speedscope's file format (https://www.speedscope.app/file-format-schema.json): the frames
 * once, then one "sampled" profile per thread whose samples are frame indexes, root first, each
 * weighing one sampling interval. A merged process tree gets one profile per process instead, its
 * threads' samples in time order, each stack going from the process's root frame through a frame
 * naming its thread.
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
        List<Timeline> timelines = timelines(profile, byThread, threads);
        json.name("activeProfileIndex").value(opensFirst(timelines, threads, byThread));
        json.name("shared").beginObject().name("frames");
        boolean merged = timelines.stream().anyMatch(t -> t.processId().isPresent());
        // A merged tree gets one frame per thread, after the profile's own, to tell a process's threads apart.
        List<String> threadFrames = merged
                ? IntStream.of(threads).mapToObj(t -> threadName(profile.threads().get(t))).toList() : List.of();
        writeFrames(profile.frames(), threadFrames, json);
        json.endObject();
        json.name("profiles").beginArray();
        int[][] paths = new int[profile.tree().size()][];
        int[] threadFrame = new int[profile.threads().size()];
        for (int i = 0; i < threads.length; i++) {
            threadFrame[threads[i]] = merged ? profile.frames().size() + i : -1;
        }
        for (Timeline timeline : timelines) {
            writeTimeline(profile, timeline, paths, threadFrame, json);
        }
        json.endArray();
        json.endObject();
        json.flush();
    }

    /** The profile holding the main thread: the view a reader should open first. */
    private static int opensFirst(List<Timeline> timelines, int[] threads, SamplesByThread byThread) {
        if (threads.length == 0) {
            return 0;
        }
        int main = threads[byThread.mainThreadPosition(threads)];
        for (int i = 0; i < timelines.size(); i++) {
            if (timelines.get(i).includes(main)) {
                return i;
            }
        }
        return 0;
    }

    /** One speedscope profile: a thread, or a merged tree's process with all its threads. */
    private record Timeline(String name, OptionalInt processId, int[] threads, int[] samples) {
        boolean includes(int thread) {
            return IntStream.of(threads).anyMatch(t -> t == thread);
        }
    }

    private static List<Timeline> timelines(Profile profile, SamplesByThread byThread, int[] threads) {
        Map<Integer, List<Integer>> byProcess = new LinkedHashMap<>();
        List<Timeline> timelines = new ArrayList<>();
        for (int t : threads) {
            ProfiledThread thread = profile.threads().get(t);
            if (thread.processId().isPresent()) {
                byProcess.computeIfAbsent(thread.processId().getAsInt(), pid -> new ArrayList<>()).add(t);
            } else {
                int[] samples = IntStream.range(0, byThread.count(t)).map(k -> byThread.sample(t, k)).toArray();
                timelines.add(new Timeline(threadName(thread), OptionalInt.empty(), new int[] {t}, samples));
            }
        }
        byProcess.forEach((pid, members) -> {
            int[] samples = members.stream()
                    .flatMapToInt(t -> IntStream.range(0, byThread.count(t)).map(k -> byThread.sample(t, k)))
                    .sorted().toArray();
            timelines.add(new Timeline("Process " + pid, OptionalInt.of(pid),
                    members.stream().mapToInt(Integer::intValue).toArray(), samples));
        });
        return timelines;
    }

    private static String threadName(ProfiledThread t) {
        return "Thread " + t.threadId() + t.name().map(n -> " [" + n + "]").orElse("");
    }

    private static void writeFrames(FrameTable frames, List<String> extra, JsonWriter json) throws IOException {
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
        for (String name : extra) {
            json.beginObject().name("name").value(name).endObject();
        }
        json.endArray();
    }

    private static void writeTimeline(Profile profile, Timeline timeline, int[][] paths, int[] threadFrame,
                                      JsonWriter json) throws IOException {
        long interval = profile.info().intervalNanos();
        long weights = 0;
        for (int sample : timeline.samples()) {
            weights += profile.samples().weight(sample);
        }
        json.beginObject();
        json.name("type").value("sampled");
        json.name("name").value(timeline.name());
        json.name("unit").value("milliseconds");
        // speedscope lays samples end to end by weight, so the profile spans exactly their sum.
        json.name("startValue").value(0);
        json.name("endValue").millis(interval * weights);
        json.name("samples").beginArray();
        CallTree tree = profile.tree();
        for (int sample : timeline.samples()) {
            int node = profile.samples().node(sample);
            if (paths[node] == null) {
                paths[node] = tree.path(node);
            }
            int thread = threadFrame[tree.threadIndex(node)];
            json.beginArray();
            for (int i = 0; i < paths[node].length; i++) {
                json.value(paths[node][i]);
                // The merged tree's root frame names the process; its thread comes next.
                if (i == 0 && thread >= 0) {
                    json.value(thread);
                }
            }
            json.endArray();
        }
        json.endArray();
        json.name("weights").beginArray();
        for (int sample : timeline.samples()) {
            json.millis(interval * profile.samples().weight(sample));
        }
        json.endArray();
        json.endObject();
    }
}
