package dev.remora.app.output.profile.binary;

import com.github.luben.zstd.ZstdInputStream;
import dev.remora.app.output.json.JsonException;
import dev.remora.app.output.json.JsonReader;
import dev.remora.app.output.json.JsonValue;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.StackErrors;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a binary capture, CPython 3.15's or Remora's, back into a profile: every sample in the order
 * the file holds them, at its time (to the microsecond), with its thread, status and stack. Remora's
 * own block, when there is one, gives back what the format has no field for. Every count, index and
 * size in the file is checked before it is used.
 */
public final class TachyonReader {

    /** Larger files are not captures this reader takes whole into memory. */
    static final long MAX_FILE = Integer.MAX_VALUE - 8;
    /** Ten minutes of a 100-thread process at 1 kHz is 60 million samples; more is not a capture to replay here. */
    static final long MAX_SAMPLES = 100_000_000;
    /**
     * A start later than this (September 2001, in microseconds since 1970) is a wall-clock time, as
     * Remora writes it; CPython writes its monotonic clock, and the file's time stands in for it.
     */
    private static final long EPOCH_2001_MICROS = 1_000_000_000_000_000L;

    private TachyonReader() {}

    public static Profile read(Path path) throws IOException, TachyonFormatException {
        long size = Files.size(path);
        if (size > MAX_FILE) {
            throw new TachyonFormatException("%s is %d bytes, more than a capture this reader takes".formatted(path, size));
        }
        return read(Files.readAllBytes(path), Files.getLastModifiedTime(path).toMillis());
    }

    /** @param modifiedMillis when the file was written: the start, for captures that do not say it */
    static Profile read(byte[] file, long modifiedMillis) throws TachyonFormatException {
        if (file.length < TachyonLayout.HEADER_SIZE + TachyonLayout.FOOTER_SIZE) {
            throw new TachyonFormatException("too short for a binary profile (%d bytes)".formatted(file.length));
        }
        ByteSource header = new ByteSource(file, 0, TachyonLayout.HEADER_SIZE, "header");
        long magic = header.u32("magic");
        if (magic != TachyonLayout.MAGIC) {
            throw new TachyonFormatException(magic == Integer.reverseBytes(TachyonLayout.MAGIC)
                    ? "a big-endian binary profile, which this reader does not take" : "not a binary profile (no HCAT magic)");
        }
        long version = header.u32("version");
        if (version != TachyonLayout.VERSION) {
            throw new TachyonFormatException("binary profile format version %d; this reader takes version %d"
                    .formatted(version, TachyonLayout.VERSION));
        }
        String python = header.u8("major") + "." + header.u8("minor") + "." + header.u8("micro");
        header.u8("reserved");
        long startMicros = header.u64("start time");
        long intervalMicros = header.u64("interval");
        long sampleCount = header.u64("sample count");
        header.u32("thread count");
        long stringsAt = header.u64("string table offset");
        long framesAt = header.u64("frame table offset");
        long compression = header.u32("compression");
        long config = header.u32("config");
        if (stringsAt < TachyonLayout.HEADER_SIZE || framesAt < stringsAt || framesAt > file.length) {
            throw new TachyonFormatException("table offsets %d and %d do not fit a %d-byte file".formatted(stringsAt, framesAt, file.length));
        }
        ByteSource footer = new ByteSource(file, file.length - TachyonLayout.FOOTER_SIZE, file.length, "footer");
        int stringCount = (int) Math.min(footer.u32("string count"), Integer.MAX_VALUE);
        int frameCount = (int) Math.min(footer.u32("frame count"), Integer.MAX_VALUE);

        List<String> strings = new ArrayList<>();
        ByteSource stringTable = new ByteSource(file, (int) stringsAt, (int) framesAt, "string table");
        for (int i = 0; i < stringCount; i++) {
            strings.add(stringTable.string("string"));
        }
        Optional<JsonValue.JsonObject> facts = facts(file);
        List<String> opcodes = TachyonCapture.opcodeNames(python);
        List<FrameInfo> frames = new ArrayList<>();
        List<String> frameOpcodes = new ArrayList<>();
        ByteSource frameTable = new ByteSource(file, (int) framesAt, file.length - TachyonLayout.FOOTER_SIZE, "frame table");
        for (int i = 0; i < frameCount; i++) {
            String fileName = strings.get(index(frameTable.varint("filename"), strings.size(), "string"));
            String function = strings.get(index(frameTable.varint("funcname"), strings.size(), "string"));
            int line = frameTable.zigzag("lineno");
            int endLine = frameTable.zigzag("end_lineno_delta");
            int column = frameTable.zigzag("column");
            int endColumn = frameTable.zigzag("end_column_delta");
            int opcode = frameTable.u8("opcode");
            frames.add(new FrameInfo(function, fileName, new SourceLocation(line, line < 0 ? -1 : line + endLine,
                    column, column < 0 ? -1 : column + endColumn)));
            frameOpcodes.add(opcode != TachyonLayout.NO_OPCODE && opcode < opcodes.size() && !opcodes.get(opcode).isEmpty()
                    ? opcodes.get(opcode) : null);
        }

        byte[] samples = samples(file, (int) stringsAt, compression);
        ProfileMode mode = mode((int) (config & 7));
        long startMillis = facts.map(f -> number(f, "start_epoch_millis")).orElse(startMicros > EPOCH_2001_MICROS
                ? startMicros / 1000 : modifiedMillis);
        // CPython's captures name no pid: the main thread's id is the process's.
        int pid = facts.isPresent() ? (int) number(facts.get(), "pid") : (int) mainThread(samples, frames.size(), startMicros);
        String backend = facts.map(f -> text(f, "backend")).orElse("capture");
        long intervalNanos = facts.map(f -> number(f, "interval_nanos")).orElse(intervalMicros * 1000);
        ProfileBuilder builder = new ProfileBuilder(new ProfileInfo(pid, python, backend, mode, intervalNanos, startMillis));
        if (sampleCount > MAX_SAMPLES) {
            throw new TachyonFormatException("the header declares %d samples, more than the %d a capture may hold here"
                    .formatted(sampleCount, MAX_SAMPLES));
        }
        long decoded = replay(samples, frames.size(), startMicros, sampleCount,
                (threadId, interpreterId, status, stack, micros) -> emit(builder, threadId, interpreterId, status, stack, micros,
                        frames, frameOpcodes));
        if (decoded != sampleCount) {
            throw new TachyonFormatException("the header declares %d samples, the file holds %d".formatted(sampleCount, decoded));
        }
        facts.ifPresent(f -> threads(f, builder.profile()));
        builder.finish(stats(file, facts, decoded));
        return builder.profile();
    }

    /** The id of the first thread a sample marks as the main thread, or 0. */
    private static long mainThread(byte[] samples, int frames, long startMicros) throws TachyonFormatException {
        long[] found = {0};
        replay(samples, frames, startMicros, (threadId, interpreterId, status, stack, micros) -> {
            if ((status & MAIN_THREAD_BIT) != 0) {
                found[0] = threadId;
                return false; // the first is enough
            }
            return true;
        });
        return found[0];
    }

    /** A status bit CPython and Remora share: the thread is its interpreter's main thread. */
    private static final int MAIN_THREAD_BIT = 1 << 5;

    /** Receives decoded samples; {@code stack} is innermost first and must not be kept. */
    private interface Samples {
        /** @return whether to go on */
        boolean sample(long threadId, long interpreterId, int status, int[] stack, long micros);
    }

    /** Decodes the records in order, feeding each sample to {@code into}; returns how many. */
    private static long replay(byte[] samples, int frames, long startMicros, Samples into) throws TachyonFormatException {
        return replay(samples, frames, startMicros, MAX_SAMPLES, into);
    }

    /** As above, failing as soon as the records hold more than {@code declared} samples. */
    private static long replay(byte[] samples, int frames, long startMicros, long declared, Samples into)
            throws TachyonFormatException {
        record Key(long thread, long interpreter) {}
        record State(int[] stack, long[] last) {}
        Map<Key, State> threads = new HashMap<>();
        ByteSource in = new ByteSource(samples, 0, samples.length, "sample records");
        long count = 0;
        while (in.hasMore()) {
            long threadId = in.u64("thread id");
            long interpreterId = in.u32("interpreter id");
            int encoding = in.u8("encoding");
            State state = threads.computeIfAbsent(new Key(threadId, interpreterId), k -> new State(new int[0], new long[] {startMicros}));
            int[] stack = state.stack();
            if (encoding == TachyonLayout.REPEAT) {
                int n = in.count("repeat count", samples.length);
                for (int i = 0; i < n; i++) {
                    long at = state.last()[0] += in.varint("timestamp delta");
                    if (!into.sample(threadId, interpreterId, in.u8("status"), stack, at - startMicros)) {
                        return count;
                    }
                    count = counted(count, declared);
                }
                continue;
            }
            long at = state.last()[0] += in.varint("timestamp delta");
            int status = in.u8("status");
            int[] next = switch (encoding) {
                case TachyonLayout.FULL -> frameIndexes(in, in.count("stack depth", TachyonLayout.MAX_DEPTH), frames);
                case TachyonLayout.SUFFIX -> {
                    int shared = in.count("shared count", stack.length);
                    int[] fresh = frameIndexes(in, in.count("new frames", TachyonLayout.MAX_DEPTH), frames);
                    yield concat(fresh, Arrays.copyOfRange(stack, stack.length - shared, stack.length));
                }
                case TachyonLayout.POP_PUSH -> {
                    long popped = in.varint("pop count");
                    // Popping more than the stack holds empties it, as CPython's reader takes it.
                    int pop = popped < 0 || popped > stack.length ? stack.length : (int) popped;
                    int[] fresh = frameIndexes(in, in.count("pushed frames", TachyonLayout.MAX_DEPTH), frames);
                    yield concat(fresh, Arrays.copyOfRange(stack, pop, stack.length));
                }
                default -> throw new TachyonFormatException("unknown stack encoding %d".formatted(encoding));
            };
            threads.put(new Key(threadId, interpreterId), new State(next, state.last()));
            if (!into.sample(threadId, interpreterId, status, next, at - startMicros)) {
                return count;
            }
            count = counted(count, declared);
        }
        return count;
    }

    private static long counted(long count, long declared) throws TachyonFormatException {
        if (count + 1 > declared) {
            throw new TachyonFormatException("the file holds more samples than %s".formatted(declared == MAX_SAMPLES
                    ? "the %d a capture may hold here".formatted(MAX_SAMPLES) : "its header declares (%d)".formatted(declared)));
        }
        return count + 1;
    }

    /** One sample into the profile; always goes on. */
    private static boolean emit(ProfileBuilder into, long threadId, long interpreterId, int status, int[] stack, long micros,
                             List<FrameInfo> frames, List<String> frameOpcodes) {
        into.beginSample(micros * 1000);
        if (!into.beginThread(interpreterId, threadId, status)) {
            return true;
        }
        if (stack.length > 0 && frameOpcodes.get(stack[0]) != null) {
            into.opcode(frameOpcodes.get(stack[0]));
        }
        for (int frame : stack) {
            into.frame(frames.get(frame));
        }
        into.endThread(Optional.empty());
        return true;
    }

    private static int[] frameIndexes(ByteSource in, int n, int frames) throws TachyonFormatException {
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = index(in.varint("frame index"), frames, "frame");
        }
        return out;
    }

    private static int index(long value, int size, String what) throws TachyonFormatException {
        if (value < 0 || value >= size) {
            throw new TachyonFormatException("invalid %s index %d (the table holds %d)".formatted(what, value, size));
        }
        return (int) value;
    }

    private static int[] concat(int[] a, int[] b) throws TachyonFormatException {
        if (a.length + b.length > 4 * TachyonLayout.MAX_DEPTH) {
            throw new TachyonFormatException("a stack of %d frames".formatted(a.length + b.length));
        }
        int[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static byte[] samples(byte[] file, int end, long compression) throws TachyonFormatException {
        if (compression != TachyonLayout.COMPRESSION_ZSTD) {
            return Arrays.copyOfRange(file, TachyonLayout.HEADER_SIZE, end);
        }
        try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(file, TachyonLayout.HEADER_SIZE, end - TachyonLayout.HEADER_SIZE))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            byte[] chunk = new byte[1 << 16];
            for (int n; (n = in.read(chunk)) > 0; ) {
                out.write(chunk, 0, n);
                if (out.size() > TachyonLayout.MAX_SAMPLE_BYTES) {
                    throw new TachyonFormatException("the samples decompress to more than %d bytes"
                            .formatted(TachyonLayout.MAX_SAMPLE_BYTES));
                }
            }
            return out.toByteArray();
        } catch (IOException e) {
            throw new TachyonFormatException("the zstd samples are corrupt: " + e.getMessage());
        }
    }

    /** Remora's block, found by its magic just before the stats block (or the footer). */
    private static Optional<JsonValue.JsonObject> facts(byte[] file) {
        int end = file.length - TachyonLayout.FOOTER_SIZE - (hasStats(file) ? TachyonLayout.STATS_SIZE : 0);
        byte[] magic = TachyonCapture.FACTS_MAGIC;
        if (end - magic.length - 4 < TachyonLayout.HEADER_SIZE
                || !Arrays.equals(file, end - magic.length, end, magic, 0, magic.length)) {
            return Optional.empty();
        }
        int at = end - magic.length - 4;
        long length = (file[at] & 0xff) | (file[at + 1] & 0xff) << 8 | (file[at + 2] & 0xff) << 16 | (long) (file[at + 3] & 0xff) << 24;
        if (length > at - TachyonLayout.HEADER_SIZE) {
            return Optional.empty();
        }
        try {
            JsonValue value = JsonReader.parse(new String(file, at - (int) length, (int) length, StandardCharsets.UTF_8));
            return value instanceof JsonValue.JsonObject o ? Optional.of(o) : Optional.empty();
        } catch (JsonException e) {
            return Optional.empty(); // not Remora's block after all: the capture is read as CPython's
        }
    }

    private static boolean hasStats(byte[] file) {
        int at = file.length - TachyonLayout.FOOTER_SIZE - 16;
        if (at < TachyonLayout.HEADER_SIZE) {
            return false;
        }
        ByteSource s = new ByteSource(file, at, at + 8, "stats");
        try {
            return s.u64("magic") == TachyonLayout.STATS_MAGIC;
        } catch (TachyonFormatException e) {
            return false;
        }
    }

    /** How the sampling went: Remora's own counts, or what CPython's stats block says, or the samples alone. */
    private static SamplingStats stats(byte[] file, Optional<JsonValue.JsonObject> facts, long samples) {
        if (facts.isPresent()) {
            JsonValue.JsonObject f = facts.get();
            long[] errors = new long[StackProblem.Kind.values().length];
            if (f.members().get("errors") instanceof JsonValue.JsonObject byKind) {
                for (StackProblem.Kind kind : StackProblem.Kind.values()) {
                    errors[kind.ordinal()] = number(byKind, kind.name());
                }
            }
            return new SamplingStats(number(f, "ticks"), samples, new StackErrors(errors), number(f, "missed"),
                    number(f, "elapsed_nanos"));
        }
        if (!hasStats(file)) {
            return new SamplingStats(samples, samples, StackErrors.NONE, 0, 0);
        }
        ByteSource s = new ByteSource(file, file.length - TachyonLayout.FOOTER_SIZE - TachyonLayout.STATS_SIZE,
                file.length - TachyonLayout.FOOTER_SIZE, "stats");
        try {
            double seconds = Double.longBitsToDouble(s.u64("duration"));
            double rate = Double.longBitsToDouble(s.u64("sample rate"));
            double errorPercent = Double.longBitsToDouble(s.u64("error rate"));
            long ticks = Math.round(seconds * rate);
            long errors = errorPercent > 0 && errorPercent < 100 ? Math.round(samples * errorPercent / (100 - errorPercent)) : 0;
            return new SamplingStats(Math.max(ticks, samples + errors), samples, StackErrors.of(StackProblem.Kind.UNRECORDED, errors), 0,
                    Math.round(seconds * 1e9));
        } catch (TachyonFormatException e) {
            return new SamplingStats(samples, samples, StackErrors.NONE, 0, 0);
        }
    }

    private static void threads(JsonValue.JsonObject facts, Profile profile) {
        if (!(facts.members().get("threads") instanceof JsonValue.JsonArray threads)) {
            return;
        }
        for (JsonValue t : threads.elements()) {
            if (t instanceof JsonValue.JsonObject thread) {
                for (int i = 0; i < profile.threads().size(); i++) {
                    var known = profile.threads().get(i);
                    if (known.threadId() == number(thread, "thread_id") && known.interpreterId() == number(thread, "interpreter_id")) {
                        if (thread.members().get("name") instanceof JsonValue.JsonString name) {
                            profile.threads().name(i, name.value());
                        }
                        if (thread.members().get("process_id") instanceof JsonValue.JsonNumber) {
                            profile.threads().process(i, (int) number(thread, "process_id"));
                        }
                    }
                }
            }
        }
    }

    private static long number(JsonValue.JsonObject o, String name) {
        try {
            return o.members().get(name) instanceof JsonValue.JsonNumber n ? n.asLong() : 0;
        } catch (JsonException e) {
            return 0; // not a count Remora wrote: taken as absent
        }
    }

    private static String text(JsonValue.JsonObject o, String name) {
        return o.members().get(name) instanceof JsonValue.JsonString s ? s.value() : "";
    }

    private static ProfileMode mode(int bits) throws TachyonFormatException {
        return switch (bits) {
            case 0, 1, 4 -> ProfileMode.WALL; // unknown, wall, or "all" (every thread, as wall keeps them)
            case 2 -> ProfileMode.CPU;
            case 3 -> ProfileMode.GIL;
            case 5 -> ProfileMode.EXCEPTION;
            default -> throw new TachyonFormatException("invalid profiling mode %d in the header".formatted(bits - 1));
        };
    }
}
