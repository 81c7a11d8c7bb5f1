package dev.remora.app.output.profile;

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
                    .computeIfAbsent(node, n -> new long[1])[0]++;
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

        JsonText w = new JsonText().beginObject()
                .field("type", "window").field("v", VERSION)
                .field("start_us", samples.time(fromSample) / 1000)
                .field("end_us", samples.time(toSample - 1) / 1000)
                .field("samples", toSample - fromSample)
                .name("threads").beginArray();
        for (Map.Entry<Integer, Map<Integer, long[]>> thread : threads.entrySet()) {
            w.beginObject().name("thread_id").unsignedValue(profile.threads().get(thread.getKey()).threadId())
                    .name("stacks").beginArray();
            for (Map.Entry<Integer, long[]> stack : thread.getValue().entrySet()) {
                w.beginObject().name("frames").beginArray();
                for (int frame : paths.get(stack.getKey())) {
                    w.value(frame);
                }
                w.endArray().field("count", stack.getValue()[0]).endObject();
            }
            w.endArray().endObject();
        }
        line(w.endArray().endObject());
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
        JsonText end = new JsonText().beginObject()
                .field("type", "end").field("v", VERSION)
                .field("samples_total", profile.samples().size())
                .field("achieved_rate_hz", stats.achievedRate())
                .field("error_rate", stats.errorRate())
                .field("ticks", stats.ticks())
                .field("errors", stats.errors().total())
                .name("error_reasons").beginObject();
        for (StackProblem.Kind kind : stats.errors().kinds()) {
            end.field(kind.label(), stats.errors().count(kind));
        }
        line(end.endObject()
                .field("missed", stats.missed())
                .field("elapsed_us", stats.elapsedNanos() / 1000)
                .endObject());
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
        line(new JsonText().beginObject()
                .field("type", "meta").field("v", VERSION)
                .field("pid", info.pid())
                .field("python_version", info.pythonVersion())
                .field("backend", info.backend())
                .field("mode", info.mode().name().toLowerCase(Locale.ROOT))
                .field("start_unix_ms", info.startEpochMillis())
                .field("sample_interval_usec", info.intervalNanos() / 1000)
                .endObject());
        out.flush();
    }

    private void frames(Profile profile, BitSet ids) throws IOException {
        List<Integer> pending = new ArrayList<>();
        for (int id = ids.nextSetBit(0); id >= 0; id = ids.nextSetBit(id + 1)) {
            pending.add(id);
        }
        for (int start = 0; start < pending.size(); start += FRAMES_PER_RECORD) {
            JsonText w = new JsonText().beginObject().field("type", "frames").field("v", VERSION).name("frames").beginArray();
            for (int id : pending.subList(start, Math.min(pending.size(), start + FRAMES_PER_RECORD))) {
                frame(w, id, profile.frames().get(id));
            }
            line(w.endArray().endObject());
        }
        framesWritten.or(ids);
    }

    private static void frame(JsonText w, int id, FrameInfo frame) {
        SourceLocation at = frame.location();
        w.beginObject().field("frame_id", id).field("function", frame.function()).field("file", frame.file())
                .field("line", at.hasLine() ? at.line() : 0);
        if (at.hasEndLine()) {
            w.field("end_line", at.endLine());
        }
        if (at.hasColumn()) {
            w.field("column", at.column());
        }
        if (at.hasEndColumn()) {
            w.field("end_column", at.endColumn());
        }
        w.endObject();
    }

    private void line(JsonText record) throws IOException {
        out.write(Utf8.encode(record + "\n"));
    }
}
