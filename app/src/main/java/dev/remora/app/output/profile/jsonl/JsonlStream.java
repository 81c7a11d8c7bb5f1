package dev.remora.app.output.profile.jsonl;

import dev.remora.app.output.profile.SampleStream;
import dev.remora.app.output.profile.Utf8;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.SampleLog;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.profile.SamplingStats;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * JSON lines written while sampling goes on, one complete record per line and flushed after every
 * window, so a reader can follow the file and a profiler killed at any moment leaves a file whose
 * every complete line parses. Records, each with {@code "type"} and a schema version {@code "v"}:
 * <ol>
 *   <li>{@code meta}, first: the target and the sampling interval;</li>
 *   <li>{@code frames}: frames (by the profile's frame id) not written before, always ahead of the
 *       first window using them, at most {@value #FRAMES_PER_RECORD} per line;</li>
 *   <li>{@code window}: the stacks sampled since the previous window, per thread, each stack as frame
 *       ids from the root with how often it was seen;</li>
 *   <li>{@code end}, last: totals and how well sampling went. Without it the run was cut short.</li>
 * </ol>
 * As in CPython's JSONL output, a frame's {@code line} is 0 when it has none and the other location
 * fields are left out when absent; consumers ignore fields and types they do not know.
 */
public final class JsonlStream implements SampleStream {

    private static final int VERSION = 0;
    private static final int FRAMES_PER_RECORD = 256;

    private final OutputStream out;
    private final BitSet framesWritten = new BitSet();
    private boolean metaWritten;
    private boolean finished;

    /** Writes to {@code out}, which this stream closes. */
    public JsonlStream(OutputStream out) {
        this.out = out;
    }

    @Override
    public void window(Profile profile, int fromSample, int toSample) throws IOException {
        meta(profile);
        if (toSample <= fromSample) {
            return;
        }
        CallTree tree = profile.tree();
        SampleLog samples = profile.samples();
        // Per thread (in order of appearance in the window), per stack node, how often it was seen.
        Map<Integer, Map<Integer, long[]>> threads = new LinkedHashMap<>();
        for (int i = fromSample; i < toSample; i++) {
            int node = samples.node(i);
            threads.computeIfAbsent(tree.threadIndex(node), t -> new LinkedHashMap<>())
                    .computeIfAbsent(node, n -> new long[1])[0] += samples.weight(i);
        }
        Map<Integer, int[]> paths = new LinkedHashMap<>();
        BitSet newFrames = new BitSet();
        for (Map<Integer, long[]> stacks : threads.values()) {
            for (int node : stacks.keySet()) {
                int[] path = tree.path(node);
                paths.put(node, path);
                for (int frame : path) {
                    if (!framesWritten.get(frame)) {
                        newFrames.set(frame);
                    }
                }
            }
        }
        frames(profile, newFrames);

        line(json -> window(json, profile, fromSample, toSample, threads, paths));
        out.flush();
    }

    @Override
    public void finish(Profile profile) throws IOException {
        meta(profile);
        if (finished) {
            return;
        }
        finished = true;
        SamplingStats stats = profile.stats();
        line(json -> {
            json.beginObject()
                    .name("type").value("end").name("v").value(VERSION)
                    .name("samples_total").value(profile.samples().total())
                    .name("achieved_rate_hz").value(stats.achievedRate())
                    .name("error_rate").value(stats.errorRate())
                    .name("ticks").value(stats.ticks())
                    .name("errors").value(stats.errors().total())
                    .name("error_reasons").beginObject();
            for (StackProblem.Kind kind : stats.errors().kinds()) {
                json.name(kind.label()).value(stats.errors().count(kind));
            }
            json.endObject()
                    .name("missed").value(stats.missed())
                    .name("elapsed_us").value(stats.elapsedNanos() / 1000)
                    .endObject();
        });
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    private void meta(Profile profile) throws IOException {
        if (metaWritten) {
            return;
        }
        metaWritten = true;
        ProfileInfo info = profile.info();
        line(json -> json.beginObject()
                .name("type").value("meta").name("v").value(VERSION)
                .name("pid").value(info.pid())
                .name("python_version").value(info.pythonVersion())
                .name("backend").value(info.backend())
                .name("mode").value(info.mode().name().toLowerCase(Locale.ROOT))
                .name("start_unix_ms").value(info.startEpochMillis())
                .name("sample_interval_usec").value(info.intervalNanos() / 1000)
                .endObject());
        out.flush();
    }

    private void frames(Profile profile, BitSet ids) throws IOException {
        List<Integer> pending = new ArrayList<>();
        for (int id = ids.nextSetBit(0); id >= 0; id = ids.nextSetBit(id + 1)) {
            pending.add(id);
        }
        for (int start = 0; start < pending.size(); start += FRAMES_PER_RECORD) {
            List<Integer> batch = pending.subList(start, Math.min(pending.size(), start + FRAMES_PER_RECORD));
            line(json -> {
                json.beginObject().name("type").value("frames").name("v").value(VERSION).name("frames").beginArray();
                for (int id : batch) {
                    frame(json, id, profile.frames().get(id));
                }
                json.endArray().endObject();
            });
        }
        framesWritten.or(ids);
    }

    /** The stacks of one window, per thread, each as frame ids from the root with how often it was seen. */
    private static void window(JsonWriter json, Profile profile, int fromSample, int toSample,
                               Map<Integer, Map<Integer, long[]>> threads, Map<Integer, int[]> paths) throws IOException {
        SampleLog samples = profile.samples();
        json.beginObject()
                .name("type").value("window").name("v").value(VERSION)
                .name("start_us").value(samples.time(fromSample) / 1000)
                .name("end_us").value(samples.time(toSample - 1) / 1000)
                .name("samples").value(toSample - fromSample)
                .name("threads").beginArray();
        for (Map.Entry<Integer, Map<Integer, long[]>> thread : threads.entrySet()) {
            json.beginObject().name("thread_id").unsignedValue(profile.threads().get(thread.getKey()).threadId())
                    .name("stacks").beginArray();
            for (Map.Entry<Integer, long[]> stack : thread.getValue().entrySet()) {
                json.beginObject().name("frames").beginArray();
                for (int frame : paths.get(stack.getKey())) {
                    json.value(frame);
                }
                json.endArray().name("count").value(stack.getValue()[0]).endObject();
            }
            json.endArray().endObject();
        }
        json.endArray().endObject();
    }

    private static void frame(JsonWriter w, int id, FrameInfo frame) throws IOException {
        SourceLocation at = frame.location();
        w.beginObject().name("frame_id").value(id).name("function").value(frame.function()).name("file").value(frame.file())
                .name("line").value(at.hasLine() ? at.line() : 0);
        if (at.hasEndLine()) {
            w.name("end_line").value(at.endLine());
        }
        if (at.hasColumn()) {
            w.name("column").value(at.column());
        }
        if (at.hasEndColumn()) {
            w.name("end_column").value(at.endColumn());
        }
        w.endObject();
    }

    private void line(JsonWriter.Body record) throws IOException {
        out.write(Utf8.encode(JsonWriter.text(record) + "\n"));
    }
}
