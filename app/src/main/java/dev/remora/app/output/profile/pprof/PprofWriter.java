package dev.remora.app.output.profile.pprof;

import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.app.output.profile.StringTable;
import dev.remora.app.output.profile.ProtoWriter;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.ThreadTable.ProfiledThread;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.GZIPOutputStream;

/**
 * Writes pprof's gzipped profile.proto (github.com/google/pprof, proto/profile.proto). Each distinct
 * stack of a thread becomes one Sample counting its samples and their time, labelled with the
 * thread; every distinct frame becomes a Location with one Line, its function a Function.
 */
public final class PprofWriter implements ProfileWriter {

    // Field numbers of profile.proto.
    private static final int PROFILE_SAMPLE_TYPE = 1;
    private static final int PROFILE_SAMPLE = 2;
    private static final int PROFILE_MAPPING = 3;
    private static final int PROFILE_LOCATION = 4;
    private static final int PROFILE_FUNCTION = 5;
    private static final int PROFILE_STRING_TABLE = 6;
    private static final int PROFILE_TIME_NANOS = 9;
    private static final int PROFILE_DURATION_NANOS = 10;
    private static final int PROFILE_PERIOD_TYPE = 11;
    private static final int PROFILE_PERIOD = 12;
    private static final int PROFILE_COMMENT = 13;
    private static final int VALUE_TYPE_TYPE = 1;
    private static final int VALUE_TYPE_UNIT = 2;
    private static final int SAMPLE_LOCATION_ID = 1;
    private static final int SAMPLE_VALUE = 2;
    private static final int SAMPLE_LABEL = 3;
    private static final int LABEL_KEY = 1;
    private static final int LABEL_STR = 2;
    private static final int LABEL_NUM = 3;
    private static final int MAPPING_ID = 1;
    private static final int MAPPING_MEMORY_LIMIT = 3;
    private static final int MAPPING_FILENAME = 5;
    private static final int MAPPING_HAS_FUNCTIONS = 7;
    private static final int LOCATION_ID = 1;
    private static final int LOCATION_MAPPING_ID = 2;
    private static final int LOCATION_ADDRESS = 3;
    private static final int LOCATION_LINE = 4;
    private static final int LINE_FUNCTION_ID = 1;
    private static final int LINE_LINE = 2;
    private static final int LINE_COLUMN = 3;
    private static final int FUNCTION_ID = 1;
    private static final int FUNCTION_NAME = 2;
    private static final int FUNCTION_FILENAME = 4;

    /** Above every address of a library's own: x86-64's user address space ends below 2^47. */
    private static final long LINK_TIME_LIMIT = 1L << 47;

    static final String THREAD_ID_LABEL = "thread_id";
    static final String THREAD_NAME_LABEL = "thread_name";
    /** In a merged process tree, the process of each sample. */
    static final String PID_LABEL = "pid";

    private record FunctionKey(String name, String file) {}

    /** Comments written after the profile's own, e.g. the labels an agent's sinks file the profile under. */
    private final List<String> comments;

    public PprofWriter() {
        this(List.of());
    }

    public PprofWriter(List<String> comments) {
        this.comments = List.copyOf(comments);
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        // Closed, so that its deflater's native memory goes at once (an agent writes a profile every few
        // seconds for months); the caller's stream stays open.
        try (GZIPOutputStream gzip = new GZIPOutputStream(new FilterOutputStream(out) {
            @Override
            public void write(byte[] bytes, int offset, int length) throws IOException {
                out.write(bytes, offset, length);
            }

            @Override
            public void close() throws IOException {
                flush();
            }
        }, 1 << 16)) {
            new Encoding(profile, gzip, comments).write();
        }
    }

    /** The name of the time value: what the profile's samples measure. */
    static String timeType(ProfileMode mode) {
        return mode == ProfileMode.CPU ? "cpu" : "wall";
    }

    /** One profile being encoded: string, function and location ids are handed out as fields are written. */
    private static final class Encoding {

        private final Profile profile;
        private final OutputStream out;
        private final ProtoWriter fields = new ProtoWriter();
        private final StringTable strings = new StringTable("");
        /** Location id (1-based) of each profile frame id; 0 until the frame is first used. */
        private final int[] locationOfFrame;
        private final Map<FunctionKey, Integer> functionIds = new HashMap<>();
        private final Map<String, Integer> mappingIds = new HashMap<>();
        private final List<String> comments;
        private int locationCount;

        Encoding(Profile profile, OutputStream out, List<String> comments) {
            this.profile = profile;
            this.out = out;
            this.comments = comments;
            this.locationOfFrame = new int[profile.frames().size()];
        }

        void write() throws IOException {
            ProfileInfo info = profile.info();
            String timeType = timeType(info.mode());
            fields.message(PROFILE_SAMPLE_TYPE, valueType("samples", "count"));
            fields.message(PROFILE_SAMPLE_TYPE, valueType(timeType, "nanoseconds"));
            fields.message(PROFILE_PERIOD_TYPE, valueType(timeType, "nanoseconds"));
            fields.integer(PROFILE_PERIOD, info.intervalNanos());
            fields.integer(PROFILE_TIME_NANOS, info.startEpochMillis() * 1_000_000);
            fields.integer(PROFILE_DURATION_NANOS, durationNanos());
            fields.integer(PROFILE_COMMENT, strings.intern("remora profile of pid %d, Python %s, %s backend, %s mode"
                    .formatted(info.pid(), info.pythonVersion(), info.backend(),
                            info.mode().name().toLowerCase(Locale.ROOT))));
            SamplingStats stats = profile.stats();
            fields.integer(PROFILE_COMMENT, strings.intern(
                    "sampling: %d ticks, %d samples, %d errors (%s), %d ticks missed"
                            .formatted(stats.ticks(), stats.samples(), stats.errors().total(), stats.errors().describe(),
                                    stats.missed())));
            for (String comment : comments) {
                fields.integer(PROFILE_COMMENT, strings.intern(comment));
            }
            fields.drainTo(out);
            writeSamples();
            // The string table goes last: only now is every string interned.
            for (String s : strings.strings()) {
                fields.string(PROFILE_STRING_TABLE, s);
            }
            fields.drainTo(out);
        }

        /** One Sample per stack seen (a stack is one call-tree node, and so belongs to one thread). */
        private void writeSamples() throws IOException {
            CallTree tree = profile.tree();
            long[] counts = profile.countsPerNode();
            long interval = profile.info().intervalNanos();
            for (int node = 0; node < tree.size(); node++) {
                if (counts[node] == 0) {
                    continue;
                }
                int[] path = tree.path(node);
                long[] locations = new long[path.length];
                // pprof wants the leaf first; the path runs from the root.
                for (int i = 0; i < path.length; i++) {
                    locations[i] = location(path[path.length - 1 - i]);
                }
                ProfiledThread thread = profile.threads().get(tree.threadIndex(node));
                ProtoWriter sample = new ProtoWriter()
                        .packed(SAMPLE_LOCATION_ID, locations)
                        .packed(SAMPLE_VALUE, counts[node], counts[node] * interval)
                        .message(SAMPLE_LABEL, new ProtoWriter()
                                .integer(LABEL_KEY, strings.intern(THREAD_ID_LABEL))
                                .integer(LABEL_NUM, thread.threadId()));
                if (thread.name().isPresent()) {
                    sample.message(SAMPLE_LABEL, new ProtoWriter()
                            .integer(LABEL_KEY, strings.intern(THREAD_NAME_LABEL))
                            .integer(LABEL_STR, strings.intern(thread.name().get())));
                }
                if (thread.processId().isPresent()) {
                    sample.message(SAMPLE_LABEL, new ProtoWriter()
                            .integer(LABEL_KEY, strings.intern(PID_LABEL))
                            .integer(LABEL_NUM, thread.processId().getAsInt()));
                }
                fields.message(PROFILE_SAMPLE, sample);
                fields.drainTo(out);
            }
        }

        /** The location id of a frame, writing the Location (and its Function) on first use. */
        private int location(int frameId) {
            if (locationOfFrame[frameId] == 0) {
                FrameInfo frame = profile.frames().get(frameId);
                int id = functionIds.size() + 1;
                Integer function = functionIds.putIfAbsent(new FunctionKey(frame.function(), frame.file()), id);
                if (function == null) {
                    function = id;
                    writeFunction(id, frame);
                }
                int location = ++locationCount;
                ProtoWriter line = new ProtoWriter().integer(LINE_FUNCTION_ID, function);
                if (frame.location().hasLine()) {
                    line.integer(LINE_LINE, frame.location().line());
                }
                if (frame.location().hasColumn()) {
                    // 1-based like the line; CPython counts columns from 0.
                    line.integer(LINE_COLUMN, frame.location().column() + 1L);
                }
                ProtoWriter written = new ProtoWriter().integer(LOCATION_ID, location);
                if (frame.isNative()) {
                    // A C frame's library is its mapping, as pprof shows native code; its address is the
                    // function's in the library's own addresses, the same in every process.
                    written.integer(LOCATION_MAPPING_ID, mapping(frame.file()));
                    if (frame.address() != 0) {
                        written.integer(LOCATION_ADDRESS, frame.address());
                    }
                }
                fields.message(PROFILE_LOCATION, written.message(LOCATION_LINE, line));
                locationOfFrame[frameId] = location;
            }
            return locationOfFrame[frameId];
        }

        /**
         * The mapping id of a C frame's library, writing the Mapping on first use: the library's own
         * (link-time) address space, from 0 up, as its locations' addresses are, its functions named.
         */
        private int mapping(String library) {
            return mappingIds.computeIfAbsent(library, path -> {
                int id = mappingIds.size() + 1;
                fields.message(PROFILE_MAPPING, new ProtoWriter()
                        .integer(MAPPING_ID, id)
                        .integer(MAPPING_MEMORY_LIMIT, LINK_TIME_LIMIT) // memory_start and file_offset: 0
                        .integer(MAPPING_FILENAME, strings.intern(path))
                        .bool(MAPPING_HAS_FUNCTIONS, true));
                return id;
            });
        }

        private void writeFunction(int id, FrameInfo frame) {
            int name = strings.intern(frame.function());
            // A pseudo frame's "~" names no file.
            boolean pseudo = PseudoFrames.NATIVE.file().equals(frame.file());
            // No system_name: pprof "demangles" a name equal to its system name by cutting out what
            // stands between <> and (), which would turn "<GC>" into "" and "f.<locals>.g" into "f..g".
            // Python names are not mangled; a different (empty) system name tells pprof to keep them.
            fields.message(PROFILE_FUNCTION, new ProtoWriter()
                    .integer(FUNCTION_ID, id)
                    .integer(FUNCTION_NAME, name)
                    .integer(FUNCTION_FILENAME, pseudo ? 0 : strings.intern(frame.file())));
        }

        private ProtoWriter valueType(String type, String unit) {
            return new ProtoWriter()
                    .integer(VALUE_TYPE_TYPE, strings.intern(type))
                    .integer(VALUE_TYPE_UNIT, strings.intern(unit));
        }

        private long durationNanos() {
            long elapsed = profile.stats().elapsedNanos();
            if (elapsed > 0) {
                return elapsed;
            }
            return profile.samples().lastTime();
        }
    }
}
