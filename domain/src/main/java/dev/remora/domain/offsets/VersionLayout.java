package dev.remora.domain.offsets;

import dev.remora.domain.offsets.versions.SupportedVersions;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * Everything Remora knows of one CPython minor version: where its layout comes from (the target's
 * own debug offsets, or a table generated from the version's headers) and the constants and
 * conventions no layout exports, set by that version's own file ({@code versions/CPython3_X.java}).
 * The walker asks this record; it never checks version numbers itself.
 *
 * @param exported the field order of the version's {@code _Py_DebugOffsets} (3.13+)
 * @param headers the layout generated from the version's headers, for versions that export none
 * @param owners the meaning of a frame's owner byte
 * @param stackRefTagBits low bits of a {@code _PyStackRef} used as tags ({@code Py_TAG_BITS}); 3.14+
 *     also stores {@code f_executable} as one
 * @param compactUnicodeExtra bytes a {@code PyCompactUnicodeObject} adds to a {@code PyASCIIObject}
 *     (utf8_length and utf8, and 3.11's wstr_length), used where the layout lacks the compact size
 * @param generatorStates the values of {@code gi_frame_state} where asyncio graphs read them (3.13+,
 *     renumbered in 3.15)
 * @param awaitedStackDepth where a coroutine suspended in {@code await} keeps the awaited object:
 *     {@code stackpointer[-depth]}: 3.14 peeks at [-1] ({@code _PyFrame_StackPeek(f)}), 3.15 at [-2]
 *     (its {@code _PyFrame_StackPeek} takes a depth), as CPython's own remote unwinder of each
 *     version reads it; absent where the target does not export the frame's stack pointer
 * @param lineTable what a code object's {@code co_linetable} holds
 * @param dictKeys the layout of a dict's keys object, for reading {@code sys.modules} (absent where
 *     asyncio graphs are not read and the headers do not install it: 3.10)
 * @param unstartedThreads how a thread state whose thread has not started yet looks
 * @param opcodeNames instruction names by opcode (the low byte of a code unit), specialised forms
 *     named after the instruction they stand for (generated, see {@code scripts/version-tables})
 * @param unexported 3.13+: layout facts the debug offsets leave out, read as if they were there
 * @param splitDictValues where a split dict keeps its values
 * @param poppedFrames what a returned frame leaves in its slot
 * @param instanceDicts where an instance keeps its attributes
 * @param lastInstruction what a frame object's {@code f_lasti} counts
 */
public record VersionLayout(int major, int minor, Optional<DebugOffsetsLayout> exported, Optional<HeaderTable> headers,
                            FrameOwners owners, long stackRefTagBits, int compactUnicodeExtra,
                            Optional<GeneratorStates> generatorStates, OptionalInt awaitedStackDepth,
                            LineTableFormat lineTable, Optional<DictKeysLayout> dictKeys, UnstartedThreads unstartedThreads, List<String> opcodeNames,
                            Optional<HeaderTable> unexported, SplitDictValues splitDictValues, PoppedFrames poppedFrames,
                            InstanceDicts instanceDicts, LastInstruction lastInstruction) {

    /**
     * Oldest first, as {@code scripts/version-tables/generate.sh} lists them. Each layout is built when
     * first asked for: a run reads one version, not six tables.
     */
    private static final List<Supported> SUPPORTED = SupportedVersions.ALL.stream()
            .map(v -> new Supported(v.major(), v.minor(), v.layout())).toList();

    /** Starts the facts of CPython {@code major.minor}, for its file in {@code versions/}. */
    public static Builder builder(int major, int minor) {
        return new Builder(major, minor);
    }

    /** Names each fact of a version as it is set; what a version lacks stays empty. */
    public static final class Builder {
        private final int major;
        private final int minor;
        private Optional<DebugOffsetsLayout> exported = Optional.empty();
        private Optional<HeaderTable> headers = Optional.empty();
        private FrameOwners owners;
        private long stackRefTagBits;
        private int compactUnicodeExtra;
        private Optional<GeneratorStates> generatorStates = Optional.empty();
        private OptionalInt awaitedStackDepth = OptionalInt.empty();
        private LineTableFormat lineTable;
        private Optional<DictKeysLayout> dictKeys = Optional.empty();
        private UnstartedThreads unstartedThreads;
        private List<String> opcodeNames;
        private Optional<HeaderTable> unexported = Optional.empty();
        private SplitDictValues splitDictValues = SplitDictValues.KEY_ORDER;
        private PoppedFrames poppedFrames = PoppedFrames.KEPT;
        private InstanceDicts instanceDicts;
        private LastInstruction lastInstruction = LastInstruction.NONE;

        private Builder(int major, int minor) {
            this.major = major;
            this.minor = minor;
        }

        public Builder exported(DebugOffsetsLayout layout) {
            exported = Optional.of(layout);
            return this;
        }

        public Builder headers(HeaderTable table) {
            headers = Optional.of(table);
            return this;
        }

        public Builder owners(FrameOwners value) {
            owners = value;
            return this;
        }

        public Builder stackRefTagBits(long bits) {
            stackRefTagBits = bits;
            return this;
        }

        public Builder compactUnicodeExtra(int bytes) {
            compactUnicodeExtra = bytes;
            return this;
        }

        public Builder generatorStates(GeneratorStates states) {
            generatorStates = Optional.of(states);
            return this;
        }

        public Builder awaitedStackDepth(int depth) {
            awaitedStackDepth = OptionalInt.of(depth);
            return this;
        }

        public Builder lineTable(LineTableFormat format) {
            lineTable = format;
            return this;
        }

        public Builder dictKeys(DictKeysLayout layout) {
            dictKeys = Optional.of(layout);
            return this;
        }

        public Builder unstartedThreads(UnstartedThreads how) {
            unstartedThreads = how;
            return this;
        }

        public Builder unexported(HeaderTable table) {
            unexported = Optional.of(table);
            return this;
        }

        public Builder splitDictValues(SplitDictValues how) {
            splitDictValues = how;
            return this;
        }

        public Builder poppedFrames(PoppedFrames what) {
            poppedFrames = what;
            return this;
        }

        public Builder instanceDicts(InstanceDicts where) {
            instanceDicts = where;
            return this;
        }

        public Builder lastInstruction(LastInstruction unit) {
            lastInstruction = unit;
            return this;
        }

        public Builder opcodes(String commaSeparated) {
            opcodeNames = OpcodeNames.parse(commaSeparated);
            return this;
        }

        public VersionLayout build() {
            if (exported.isEmpty() == headers.isEmpty() || owners == null || lineTable == null
                    || unstartedThreads == null || opcodeNames == null || instanceDicts == null) {
                throw new IllegalStateException("CPython " + major + "." + minor + " lacks a fact every version needs");
            }
            return new VersionLayout(major, minor, exported, headers, owners, stackRefTagBits, compactUnicodeExtra,
                    generatorStates, awaitedStackDepth, lineTable, dictKeys, unstartedThreads, opcodeNames,
                    unexported, splitDictValues, poppedFrames, instanceDicts, lastInstruction);
        }
    }

    public static Optional<VersionLayout> forVersion(PythonVersion version) {
        return SUPPORTED.stream().filter(v -> v.is(version.major(), version.minor())).findFirst().map(Supported::layout);
    }

    /** Every supported version's layout, oldest first (building those not built yet). */
    public static List<VersionLayout> all() {
        return SUPPORTED.stream().map(Supported::layout).toList();
    }

    /** Whether CPython {@code major.minor} is supported, without building its layout. */
    public static boolean isSupported(int major, int minor) {
        return SUPPORTED.stream().anyMatch(v -> v.is(major, minor));
    }

    /** The supported minor versions' names ("3.10", ...), oldest first, without building their layouts. */
    public static List<String> supportedNames() {
        return SUPPORTED.stream().map(v -> v.major + "." + v.minor).toList();
    }

    /** The supported minor versions, as "3.11, 3.12, 3.13". */
    public static String supportedVersions() {
        return String.join(", ", supportedNames());
    }

    /** "3.12". */
    public String name() {
        return major + "." + minor;
    }

    /** The name of the instruction whose code unit is {@code codeUnit}, or empty for an unknown opcode. */
    public String opcodeName(int codeUnit) {
        int opcode = codeUnit & 0xFF;
        return opcode < opcodeNames.size() ? opcodeNames.get(opcode) : "";
    }

    /** The object a {@code _PyStackRef} (a value-stack slot, or 3.14+'s {@code f_executable}) refers to. */
    public long untagStackRef(long ref) {
        return ref & ~stackRefTagBits;
    }

    /** A supported version's number, and its layout once built. */
    private static final class Supported {
        private final int major;
        private final int minor;
        private final Supplier<VersionLayout> build;
        private volatile VersionLayout built;

        Supported(int major, int minor, Supplier<VersionLayout> build) {
            this.major = major;
            this.minor = minor;
            this.build = build;
        }

        boolean is(int major, int minor) {
            return this.major == major && this.minor == minor;
        }

        VersionLayout layout() {
            VersionLayout layout = built;
            if (layout == null) {
                synchronized (this) {
                    layout = built;
                    if (layout == null) {
                        layout = build.get();
                        built = layout;
                    }
                }
            }
            return layout;
        }
    }
}
