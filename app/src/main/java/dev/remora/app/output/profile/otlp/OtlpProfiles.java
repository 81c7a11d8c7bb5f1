package dev.remora.app.output.profile.otlp;

import dev.remora.app.output.profile.StringTable;
import dev.remora.app.output.profile.ProtoWriter;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.ThreadTable.ProfiledThread;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Encodes a profile as OpenTelemetry's {@code ExportProfilesServiceRequest}, the body of OTLP/HTTP's
 * {@code POST /v1development/profiles}, as opentelemetry-proto 1.11.0-alpha defines it
 * ({@code opentelemetry/proto/profiles/v1development/profiles.proto}): one resource (the process),
 * one scope (Remora), one profile whose samples count ticks, each distinct stack of a thread a
 * Sample labelled with {@code thread.id} and {@code thread.name}; strings, functions, locations,
 * stacks and attributes in the request's dictionary, each table's entry 0 its zero value.
 */
public final class OtlpProfiles {

    /** The proto version these field numbers are of, for the README and log lines. */
    public static final String PROTO_VERSION = "opentelemetry-proto 1.11.0-alpha (profiles v1development)";

    // ExportProfilesServiceRequest
    private static final int REQUEST_RESOURCE_PROFILES = 1;
    private static final int REQUEST_DICTIONARY = 2;
    // ProfilesDictionary
    private static final int DICTIONARY_MAPPING = 1;
    private static final int DICTIONARY_LOCATION = 2;
    private static final int DICTIONARY_FUNCTION = 3;
    private static final int DICTIONARY_LINK = 4;
    private static final int DICTIONARY_STRING = 5;
    private static final int DICTIONARY_ATTRIBUTE = 6;
    private static final int DICTIONARY_STACK = 7;
    // ResourceProfiles, Resource, ScopeProfiles, InstrumentationScope
    private static final int RESOURCE_PROFILES_RESOURCE = 1;
    private static final int RESOURCE_PROFILES_SCOPE_PROFILES = 2;
    private static final int RESOURCE_ATTRIBUTES = 1;
    private static final int SCOPE_PROFILES_SCOPE = 1;
    private static final int SCOPE_PROFILES_PROFILES = 2;
    private static final int SCOPE_NAME = 1;
    private static final int SCOPE_VERSION = 2;
    // KeyValue, AnyValue, KeyValueAndUnit
    private static final int KEY_VALUE_KEY = 1;
    private static final int KEY_VALUE_VALUE = 2;
    private static final int ANY_STRING = 1;
    private static final int ANY_INT = 3;
    private static final int KEY_VALUE_AND_UNIT_KEY = 1;
    private static final int KEY_VALUE_AND_UNIT_VALUE = 2;
    // Profile
    private static final int PROFILE_SAMPLE_TYPE = 1;
    private static final int PROFILE_SAMPLES = 2;
    private static final int PROFILE_TIME_UNIX_NANO = 3;
    private static final int PROFILE_DURATION_NANO = 4;
    private static final int PROFILE_PERIOD_TYPE = 5;
    private static final int PROFILE_PERIOD = 6;
    private static final int PROFILE_PROFILE_ID = 7;
    private static final int VALUE_TYPE_TYPE = 1;
    private static final int VALUE_TYPE_UNIT = 2;
    // Sample, Stack, Location, Line, Function
    private static final int SAMPLE_STACK_INDEX = 1;
    private static final int SAMPLE_ATTRIBUTE_INDICES = 2;
    private static final int SAMPLE_VALUES = 4;
    private static final int STACK_LOCATION_INDICES = 1;
    private static final int LOCATION_LINES = 3;
    private static final int LINE_FUNCTION_INDEX = 1;
    private static final int LINE_LINE = 2;
    private static final int LINE_COLUMN = 3;
    private static final int FUNCTION_NAME = 1;
    private static final int FUNCTION_FILENAME = 3;

    public static final String THREAD_ID = "thread.id";
    public static final String THREAD_NAME = "thread.name";

    /** A resource attribute: a string or an integer. */
    public record Attribute(String key, Object value) {
        public Attribute {
            Objects.requireNonNull(key);
            if (!(value instanceof String) && !(value instanceof Long)) {
                throw new IllegalArgumentException("a string or a long: " + value);
            }
        }
    }

    private OtlpProfiles() {}

    /**
     * The request for one profile of one process.
     *
     * @param resource the process's attributes (service.name, host.name, process.pid, ...)
     * @param profileId 16 bytes that name this profile
     */
    public static byte[] encode(Profile profile, List<Attribute> resource, String scopeVersion, byte[] profileId) {
        return new Encoding(profile).request(resource, scopeVersion, profileId);
    }

    /** One profile being encoded: the dictionary's tables grow as samples are written. */
    private static final class Encoding {
        private final Profile profile;
        private final StringTable strings = new StringTable("");
        private final List<ProtoWriter> functions = new ArrayList<>(List.of(new ProtoWriter()));
        private final List<ProtoWriter> locations = new ArrayList<>(List.of(new ProtoWriter()));
        private final List<ProtoWriter> stacks = new ArrayList<>(List.of(new ProtoWriter()));
        private final List<ProtoWriter> attributes = new ArrayList<>(List.of(new ProtoWriter()));
        private final Map<String, Integer> functionIndex = new HashMap<>();
        private final Map<Long, Integer> attributeIndex = new HashMap<>();
        private final Map<String, Integer> nameIndex = new HashMap<>();
        /** Location index of each profile frame id; 0 until the frame is first used. */
        private final int[] locationOfFrame;

        Encoding(Profile profile) {
            this.profile = profile;
            this.locationOfFrame = new int[profile.frames().size()];
        }

        byte[] request(List<Attribute> resource, String scopeVersion, byte[] profileId) {
            ProfileInfo info = profile.info();
            ProtoWriter written = new ProtoWriter()
                    .message(PROFILE_SAMPLE_TYPE, valueType("samples", "count"));
            CallTree tree = profile.tree();
            long[] counts = profile.countsPerNode();
            for (int node = 0; node < tree.size(); node++) {
                if (counts[node] == 0) {
                    continue;
                }
                ProfiledThread thread = profile.threads().get(tree.threadIndex(node));
                long[] threadAttributes = thread.name().isPresent()
                        ? new long[] {threadId(thread.threadId()), threadName(thread.name().get())}
                        : new long[] {threadId(thread.threadId())};
                written.message(PROFILE_SAMPLES, new ProtoWriter()
                        .integer(SAMPLE_STACK_INDEX, stack(tree.path(node)))
                        .packed(SAMPLE_ATTRIBUTE_INDICES, threadAttributes)
                        .packed(SAMPLE_VALUES, counts[node]));
            }
            String timeType = info.mode() == ProfileMode.CPU ? "cpu" : "wall";
            written.fixed64(PROFILE_TIME_UNIX_NANO, info.startEpochMillis() * 1_000_000)
                    .integer(PROFILE_DURATION_NANO, Math.max(0, profile.stats().elapsedNanos()))
                    .message(PROFILE_PERIOD_TYPE, valueType(timeType, "nanoseconds"))
                    .integer(PROFILE_PERIOD, info.intervalNanos())
                    .bytes(PROFILE_PROFILE_ID, profileId);

            ProtoWriter resourceWriter = new ProtoWriter();
            for (Attribute attribute : resource) {
                resourceWriter.message(RESOURCE_ATTRIBUTES, new ProtoWriter()
                        .string(KEY_VALUE_KEY, attribute.key())
                        .message(KEY_VALUE_VALUE, anyValue(attribute.value())));
            }
            ProtoWriter scope = new ProtoWriter()
                    .message(SCOPE_PROFILES_SCOPE, new ProtoWriter().string(SCOPE_NAME, "remora").string(SCOPE_VERSION, scopeVersion))
                    .message(SCOPE_PROFILES_PROFILES, written);
            ProtoWriter resourceProfiles = new ProtoWriter()
                    .message(RESOURCE_PROFILES_RESOURCE, resourceWriter)
                    .message(RESOURCE_PROFILES_SCOPE_PROFILES, scope);

            ProtoWriter dictionary = new ProtoWriter().message(DICTIONARY_MAPPING, new ProtoWriter());
            locations.forEach(l -> dictionary.message(DICTIONARY_LOCATION, l));
            functions.forEach(f -> dictionary.message(DICTIONARY_FUNCTION, f));
            dictionary.message(DICTIONARY_LINK, new ProtoWriter());
            strings.strings().forEach(s -> dictionary.string(DICTIONARY_STRING, s));
            attributes.forEach(a -> dictionary.message(DICTIONARY_ATTRIBUTE, a));
            stacks.forEach(s -> dictionary.message(DICTIONARY_STACK, s));

            return new ProtoWriter()
                    .message(REQUEST_RESOURCE_PROFILES, resourceProfiles)
                    .message(REQUEST_DICTIONARY, dictionary)
                    .toByteArray();
        }

        /** A stack of the dictionary's, leaf first; the path runs from the root. Every sample's stack is distinct. */
        private int stack(int[] path) {
            long[] leafFirst = new long[path.length];
            for (int i = 0; i < path.length; i++) {
                leafFirst[i] = location(path[path.length - 1 - i]);
            }
            stacks.add(new ProtoWriter().packed(STACK_LOCATION_INDICES, leafFirst));
            return stacks.size() - 1;
        }

        private int location(int frameId) {
            if (locationOfFrame[frameId] == 0) {
                FrameInfo frame = profile.frames().get(frameId);
                ProtoWriter line = new ProtoWriter().integer(LINE_FUNCTION_INDEX, function(frame));
                if (frame.location().hasLine()) {
                    line.integer(LINE_LINE, frame.location().line());
                }
                if (frame.location().hasColumn()) {
                    line.integer(LINE_COLUMN, frame.location().column() + 1L); // 1-based, as pprof's
                }
                locations.add(new ProtoWriter().message(LOCATION_LINES, line));
                locationOfFrame[frameId] = locations.size() - 1;
            }
            return locationOfFrame[frameId];
        }

        private int function(FrameInfo frame) {
            return functionIndex.computeIfAbsent(frame.function() + "\0" + frame.file(), key -> {
                functions.add(new ProtoWriter()
                        .integer(FUNCTION_NAME, strings.intern(frame.function()))
                        .integer(FUNCTION_FILENAME, strings.intern(frame.file())));
                return functions.size() - 1;
            });
        }

        private long threadId(long id) {
            return attributeIndex.computeIfAbsent(id, key -> attribute(THREAD_ID, key));
        }

        private long threadName(String name) {
            return nameIndex.computeIfAbsent(name, key -> attribute(THREAD_NAME, key));
        }

        private int attribute(String key, Object value) {
            attributes.add(new ProtoWriter()
                    .integer(KEY_VALUE_AND_UNIT_KEY, strings.intern(key))
                    .message(KEY_VALUE_AND_UNIT_VALUE, anyValue(value)));
            return attributes.size() - 1;
        }

        private ProtoWriter valueType(String type, String unit) {
            return new ProtoWriter()
                    .integer(VALUE_TYPE_TYPE, strings.intern(type))
                    .integer(VALUE_TYPE_UNIT, strings.intern(unit));
        }

        private static ProtoWriter anyValue(Object value) {
            return value instanceof Long number ? new ProtoWriter().integer(ANY_INT, number)
                    : new ProtoWriter().string(ANY_STRING, (String) value);
        }
    }
}
