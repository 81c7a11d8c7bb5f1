package dev.remora.app.output.profile.binary;

import com.github.luben.zstd.Zstd;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.domain.offsets.VersionLayout;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SampleLog;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.ThreadTable.ProfiledThread;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A profile turned into CPython 3.15's binary capture format, block by block: the sample records of
 * each block (one zstd frame each when compressed), then, whenever the file must be whole, what
 * follows them: the string and frame tables, Remora's own facts, the stats block and the footer,
 * and the header that points at them.
 *
 * <p>Remora's facts the format has no field for (the pid, the backend, the wall-clock start, errors
 * by reason, missed ticks, thread names and processes) travel in a block between the frame table and
 * the stats block, where CPython's reader, which finds the stats from the end of the file, does not
 * look.
 */
final class TachyonCapture {

    /** Closes Remora's block: its JSON, the JSON's length as a u32, then "REMORA01", so it is found from its end. */
    static final byte[] FACTS_MAGIC = "REMORA01".getBytes(StandardCharsets.US_ASCII);

    private final ProfileInfo info;
    private final boolean zstd;
    private final long startMicros;
    private final TachyonRecords records;
    private final TachyonTables tables = new TachyonTables();
    private final ByteSink block = new ByteSink();
    private final Map<String, Integer> opcodeNumbers = new HashMap<>();
    private final int config;
    /** Per call-tree node, its stack as the format's frame indexes, innermost first, without opcodes. */
    private int[][] stacks = new int[256][];

    /** @param features the capture features ({@code FEATURE_*}), or -1 when they are not known */
    TachyonCapture(ProfileInfo info, boolean zstd, int features) {
        this.info = info;
        this.zstd = zstd;
        this.startMicros = info.startEpochMillis() * 1000;
        this.records = new TachyonRecords(startMicros);
        this.config = modeBits(info.mode()) | (features < 0 ? 0 : TachyonLayout.FEATURES_RECORDED | features);
        List<String> names = opcodeNames(info.pythonVersion());
        for (int op = names.size() - 1; op >= 0; op--) {
            if (!names.get(op).isEmpty()) {
                opcodeNumbers.put(names.get(op), op); // the lowest number of a name: the instruction itself
            }
        }
    }

    /** The records of samples {@code [from, to)}, compressed when asked: bytes for the sample region. */
    byte[] block(Profile profile, int from, int to) {
        block.clear();
        SampleLog log = profile.samples();
        CallTree tree = profile.tree();
        for (int s = from; s < to; s++) {
            int node = log.node(s);
            int[] frames = stackOf(profile, node);
            int[] sampled = frames;
            if (log.opcode(s) >= 0 && frames.length > 0) {
                // The format keeps the opcode in the innermost frame: an entry of its own per instruction.
                int opcode = opcodeNumbers.getOrDefault(profile.opcodeName(log.opcode(s)), TachyonLayout.NO_OPCODE);
                int innermost = tree.frame(node);
                sampled = frames.clone();
                sampled[0] = tables.frame(innermost, profile.frames().get(innermost), opcode);
            }
            ProfiledThread thread = profile.threads().get(tree.threadIndex(node));
            // A folded entry stands for several samples: the format has a record for each.
            for (int copy = 0; copy < log.weight(s); copy++) {
                records.sample(thread.threadId(), thread.interpreterId(), sampled, sampled.length, log.time(s) / 1000, log.status(s),
                        block);
            }
        }
        records.flush(block);
        byte[] raw = block.toArray();
        return zstd && raw.length > 0 ? Zstd.compress(raw, TachyonLayout.ZSTD_LEVEL) : raw;
    }

    /** The node's stack in the format's frames: worked out once per node, since most samples repeat a stack. */
    private int[] stackOf(Profile profile, int node) {
        if (node >= stacks.length) {
            stacks = java.util.Arrays.copyOf(stacks, Math.max(node + 1, stacks.length * 2));
        }
        int[] known = stacks[node];
        if (known == null) {
            int[] path = profile.tree().path(node); // root first
            known = new int[path.length];
            for (int i = 0; i < path.length; i++) {
                int frame = path[path.length - 1 - i];
                known[i] = tables.frame(frame, profile.frames().get(frame), TachyonLayout.NO_OPCODE);
            }
            stacks[node] = known;
        }
        return known;
    }

    /** What follows the sample region ending at {@code samplesEnd}: tables, facts, stats, footer. */
    Tail tail(Profile profile, long samplesEnd, SamplingStats stats) {
        ByteSink out = new ByteSink();
        long framesAt = samplesEnd + tables.write(out);
        byte[] facts = facts(profile, stats).getBytes(StandardCharsets.UTF_8);
        out.bytes(facts).u32(facts.length).bytes(FACTS_MAGIC);
        double seconds = stats.elapsedNanos() / 1e9;
        out.f64(seconds).f64(stats.achievedRate()).f64(stats.errorRate() * 100)
                .f64(stats.ticks() == 0 ? 0 : 100.0 * stats.missed() / (stats.ticks() + stats.missed()))
                .u32(3).u32(0).u64(TachyonLayout.STATS_MAGIC).u32(1).u32(TachyonLayout.STATS_SIZE);
        long fileSize = samplesEnd + out.size() + TachyonLayout.FOOTER_SIZE;
        out.u32(tables.stringCount()).u32(tables.frameCount()).u64(fileSize).u64(0).u64(0);
        return new Tail(out.toArray(), samplesEnd, framesAt);
    }

    /** The bytes after the sample region, and where its tables start. */
    record Tail(byte[] bytes, long stringsAt, long framesAt) {}

    /** The 64-byte header of a file whose tables are at {@code tail}. */
    byte[] header(Tail tail) {
        String[] version = info.pythonVersion().split("\\.");
        ByteSink h = new ByteSink();
        h.u32(TachyonLayout.MAGIC).u32(TachyonLayout.VERSION)
                .u8(part(version, 0)).u8(part(version, 1)).u8(part(version, 2)).u8(0)
                .u64(startMicros).u64(Math.max(1, info.intervalNanos() / 1000)).u64(records.samples())
                .u32(records.threads()).u64(tail.stringsAt()).u64(tail.framesAt())
                .u32(zstd ? TachyonLayout.COMPRESSION_ZSTD : TachyonLayout.COMPRESSION_NONE).u32(config);
        return h.toArray();
    }

    private static String facts(Profile profile, SamplingStats stats) {
        ProfileInfo info = profile.info();
        return JsonWriter.text(json -> {
            json.beginObject().name("pid").value(info.pid()).name("backend").value(info.backend())
                    .name("python_version").value(info.pythonVersion())
                    .name("start_epoch_millis").value(info.startEpochMillis())
                    .name("interval_nanos").value(info.intervalNanos())
                    .name("ticks").value(stats.ticks()).name("missed").value(stats.missed())
                    .name("elapsed_nanos").value(stats.elapsedNanos()).name("errors").beginObject();
            for (StackProblem.Kind kind : StackProblem.Kind.values()) {
                json.name(kind.name()).value(stats.errors().count(kind));
            }
            json.endObject().name("threads").beginArray();
            for (int t = 0; t < profile.threads().size(); t++) {
                ProfiledThread thread = profile.threads().get(t);
                json.beginObject().name("thread_id").value(thread.threadId())
                        .name("interpreter_id").value(thread.interpreterId());
                if (thread.name().isPresent()) {
                    json.name("name").value(thread.name().get());
                }
                if (thread.processId().isPresent()) {
                    json.name("process_id").value(thread.processId().getAsInt());
                }
                json.endObject();
            }
            json.endArray().endObject();
        });
    }

    private static int part(String[] version, int i) {
        try {
            return i < version.length ? Integer.parseInt(version[i].replaceAll("\\D.*", "")) & 0xff : 0;
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /** Bits 0-2 of the config word: CPython's mode number plus one. */
    static int modeBits(ProfileMode mode) {
        return switch (mode) {
            case WALL -> 1;
            case CPU -> 2;
            case GIL -> 3;
            case EXCEPTION -> 5;
        };
    }

    /** The instruction names of the capture's CPython version, by number; empty when it is not one Remora knows. */
    static List<String> opcodeNames(String pythonVersion) {
        String[] v = pythonVersion.split("\\.");
        if (v.length < 2) {
            return List.of();
        }
        return VersionLayout.forVersion(new PythonVersion(part(v, 0), part(v, 1), 0, 0xF, 0))
                .map(VersionLayout::opcodeNames).orElse(List.of());
    }
}
