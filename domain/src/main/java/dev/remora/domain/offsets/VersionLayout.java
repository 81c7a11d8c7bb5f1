package dev.remora.domain.offsets;

import dev.remora.domain.offsets.versions.CPython3_10;
import dev.remora.domain.offsets.versions.CPython3_11;
import dev.remora.domain.offsets.versions.CPython3_12;
import dev.remora.domain.offsets.versions.CPython3_13;
import dev.remora.domain.offsets.versions.CPython3_14;
import dev.remora.domain.offsets.versions.CPython3_15;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * Everything Remora knows of one CPython minor version: where its layout comes from (the target's
 * own debug offsets, or a table generated from the version's headers) and the constants and
 * conventions no layout exports. The walker asks this record; it never checks version numbers
 * itself. Adding a version is adding one entry to {@link #SUPPORTED}.
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
 */
public record VersionLayout(int major, int minor, Optional<DebugOffsetsLayout> exported, Optional<HeaderTable> headers,
                            FrameOwners owners, long stackRefTagBits, int compactUnicodeExtra,
                            Optional<GeneratorStates> generatorStates, OptionalInt awaitedStackDepth,
                            LineTableFormat lineTable, Optional<DictKeysLayout> dictKeys, UnstartedThreads unstartedThreads, List<String> opcodeNames,
                            Optional<HeaderTable> unexported, SplitDictValues splitDictValues) {

    /** 3.13 and 3.14: CREATED=-3, SUSPENDED=-2, SUSPENDED_YIELD_FROM=-1, EXECUTING=0, COMPLETED=1, CLEARED=4. */
    private static final GeneratorStates STATES_3_13 =
            new GeneratorStates(-3, -2, -1, OptionalInt.empty(), 0, OptionalInt.of(1), 4);
    /** 3.15: CREATED=0, SUSPENDED=1, SUSPENDED_YIELD_FROM=2, SUSPENDED_YIELD_FROM_LOCKED=3, EXECUTING=4, CLEARED=5. */
    private static final GeneratorStates STATES_3_15 =
            new GeneratorStates(0, 1, 2, OptionalInt.of(3), 4, OptionalInt.empty(), 5);
    /** The head of {@code PyDictKeysObject}, the same in 3.13, 3.14 and 3.15 GIL builds. */
    private static final DictKeysLayout DICT_KEYS_3_13 = new DictKeysLayout(9, 10, 24, 32, 0, OptionalInt.empty());

    /**
     * What 3.13-3.15's debug offsets leave out and frames' variables need, from their headers
     * ({@code Include/cpython/code.h}: {@code co_flags} just before {@code co_argcount},
     * {@code co_kwonlyargcount} two ints after; {@code pycore_code.h}'s {@code CO_FAST_*};
     * {@code PyDictObject.ma_used} and {@code PyCellObject.ob_ref} right after the object head).
     */
    private static final String UNEXPORTED_3_13 = """
            code_object.flags             0x30
            code_object.kwonlyargcount    0x3c
            code_flags.varargs            4
            code_flags.varkeywords        8
            local_kind.hidden             0x10
            local_kind.local              0x20
            local_kind.cell               0x40
            local_kind.free               0x80
            dict_object.ma_used           0x10
            cell_object.size              0x18
            cell_object.ob_ref            0x10
            """;
    /**
     * Where 3.13 and 3.14 keep a thread's exceptions, which 3.15 exports ({@code Include/cpython/pystate.h}):
     * {@code current_exception} just before {@code exc_info}, the thread's own {@code exc_state} item, and
     * that item's {@code exc_value} first. The same in both, as 3.13.0's headers and the thread states of
     * live 3.13 and 3.14 interpreters show.
     */
    private static final String EXCEPTIONS_3_13 = """
            thread_state.current_exception 0x70
            thread_state.exc_state        0x100
            err_stackitem.exc_value       0x0
            """;
    /** 3.13's {@code PySetObject}, which 3.14 exports: {@code fill, used, mask, table} after the head. */
    private static final String SET_3_13 = """
            set_object.size               0xc8
            set_object.used               0x18
            set_object.mask               0x20
            set_object.table              0x28
            """;

    /** Oldest first. Each layout is built when first asked for: a run reads one version, not six tables. */
    private static final List<Supported> SUPPORTED = List.of(new Supported(3, 10, VersionLayout::v3_10),
            new Supported(3, 11, VersionLayout::v3_11), new Supported(3, 12, VersionLayout::v3_12),
            new Supported(3, 13, VersionLayout::v3_13), new Supported(3, 14, VersionLayout::v3_14),
            new Supported(3, 15, VersionLayout::v3_15));

    private static VersionLayout v3_10() {
        HeaderTable t = HeaderTable.parse("3.10", CPython3_10.LAYOUT_FROM, CPython3_10.LAYOUT);
        return new Builder(3, 10)
                .headers(t)
                // Heap frame objects: no owner byte; every frame of a chain is the thread's own.
                .owners(new FrameOwners(0, 0, new int[] {}, new int[] {0}, 0))
                .compactUnicodeExtra(24)
                .lineTable(LineTableFormat.LINES)
                .dictKeys(DictKeysLayout.LEGACY_3_10)
                .unstartedThreads(UnstartedThreads.CREATOR_IDS)
                .opcodes(CPython3_10.OPCODES)
                .build();
    }

    private static VersionLayout v3_11() {
        HeaderTable t = HeaderTable.parse("3.11", CPython3_11.LAYOUT_FROM, CPython3_11.LAYOUT);
        int frameObject = (int) t.require("frame_owner.frame_object");
        return new Builder(3, 11)
                .headers(t)
                // No shim frames: a thread's first frame is its own.
                .owners(new FrameOwners(0, 1, new int[] {}, new int[] {0}, frameObject))
                .compactUnicodeExtra(24)
                .lineTable(LineTableFormat.LOCATIONS)
                .dictKeys(DictKeysLayout.from(t))
                .unstartedThreads(UnstartedThreads.CREATOR_IDS)
                .opcodes(CPython3_11.OPCODES)
                .build();
    }

    private static VersionLayout v3_12() {
        HeaderTable t = HeaderTable.parse("3.12", CPython3_12.LAYOUT_FROM, CPython3_12.LAYOUT);
        int cstack = (int) t.require("frame_owner.cstack");
        return new Builder(3, 12)
                .headers(t)
                .owners(new FrameOwners(0, 1, new int[] {cstack}, new int[] {cstack}, cstack))
                .compactUnicodeExtra(16)
                .lineTable(LineTableFormat.LOCATIONS)
                .dictKeys(DictKeysLayout.from(t))
                .unstartedThreads(UnstartedThreads.ZERO_NATIVE_ID)
                .opcodes(CPython3_12.OPCODES)
                .build();
    }

    private static VersionLayout v3_13() {
        return new Builder(3, 13)
                .exported(DebugOffsetsLayout.V3_13)
                .unexported(HeaderTable.parse("3.13", "3.13.0", UNEXPORTED_3_13 + SET_3_13 + EXCEPTIONS_3_13))
                .splitDictValues(SplitDictValues.INSERTION_ORDER)
                // FRAME_OWNED_BY_CSTACK = 3
                .owners(new FrameOwners(0, 1, new int[] {3}, new int[] {3}, 3))
                .compactUnicodeExtra(16)
                .generatorStates(STATES_3_13)
                .lineTable(LineTableFormat.LOCATIONS)
                .dictKeys(DICT_KEYS_3_13)
                .unstartedThreads(UnstartedThreads.ZERO_NATIVE_ID)
                .opcodes(CPython3_13.OPCODES)
                .build();
    }

    private static VersionLayout v3_14() {
        return new Builder(3, 14)
                .exported(DebugOffsetsLayout.V3_14)
                .unexported(HeaderTable.parse("3.14", "3.14.0", UNEXPORTED_3_13 + EXCEPTIONS_3_13))
                .splitDictValues(SplitDictValues.INSERTION_ORDER)
                // FRAME_OWNED_BY_INTERPRETER = 3, FRAME_OWNED_BY_CSTACK = 4
                .owners(new FrameOwners(0, 1, new int[] {3, 4}, new int[] {3, 4}, 4))
                .stackRefTagBits(3)
                .compactUnicodeExtra(16)
                .generatorStates(STATES_3_13)
                .awaitedStackDepth(1)
                .lineTable(LineTableFormat.LOCATIONS)
                .dictKeys(DICT_KEYS_3_13)
                .unstartedThreads(UnstartedThreads.ZERO_NATIVE_ID)
                .opcodes(CPython3_14.OPCODES)
                .build();
    }

    private static VersionLayout v3_15() {
        return new Builder(3, 15)
                .exported(DebugOffsetsLayout.V3_15)
                .unexported(HeaderTable.parse("3.15", "3.15.0", UNEXPORTED_3_13))
                .splitDictValues(SplitDictValues.INSERTION_ORDER)
                // FRAME_OWNED_BY_INTERPRETER = 3
                .owners(new FrameOwners(0, 1, new int[] {3}, new int[] {3}, 3))
                .stackRefTagBits(3)
                .compactUnicodeExtra(16)
                .generatorStates(STATES_3_15)
                .awaitedStackDepth(2)
                .lineTable(LineTableFormat.LOCATIONS)
                .dictKeys(DICT_KEYS_3_13)
                .unstartedThreads(UnstartedThreads.ZERO_NATIVE_ID)
                .opcodes(CPython3_15.OPCODES)
                .build();
    }

    /** Names each fact of a version as it is set; what a version lacks stays empty. */
    private static final class Builder {
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

        Builder(int major, int minor) {
            this.major = major;
            this.minor = minor;
        }

        Builder exported(DebugOffsetsLayout layout) {
            exported = Optional.of(layout);
            return this;
        }

        Builder headers(HeaderTable table) {
            headers = Optional.of(table);
            return this;
        }

        Builder owners(FrameOwners value) {
            owners = value;
            return this;
        }

        Builder stackRefTagBits(long bits) {
            stackRefTagBits = bits;
            return this;
        }

        Builder compactUnicodeExtra(int bytes) {
            compactUnicodeExtra = bytes;
            return this;
        }

        Builder generatorStates(GeneratorStates states) {
            generatorStates = Optional.of(states);
            return this;
        }

        Builder awaitedStackDepth(int depth) {
            awaitedStackDepth = OptionalInt.of(depth);
            return this;
        }

        Builder lineTable(LineTableFormat format) {
            lineTable = format;
            return this;
        }

        Builder dictKeys(DictKeysLayout layout) {
            dictKeys = Optional.of(layout);
            return this;
        }

        Builder unstartedThreads(UnstartedThreads how) {
            unstartedThreads = how;
            return this;
        }

        Builder unexported(HeaderTable table) {
            unexported = Optional.of(table);
            return this;
        }

        Builder splitDictValues(SplitDictValues how) {
            splitDictValues = how;
            return this;
        }

        Builder opcodes(String commaSeparated) {
            opcodeNames = OpcodeNames.parse(commaSeparated);
            return this;
        }

        VersionLayout build() {
            if (exported.isEmpty() == headers.isEmpty() || owners == null || lineTable == null
                    || unstartedThreads == null || opcodeNames == null) {
                throw new IllegalStateException("CPython " + major + "." + minor + " lacks a fact every version needs");
            }
            return new VersionLayout(major, minor, exported, headers, owners, stackRefTagBits, compactUnicodeExtra,
                    generatorStates, awaitedStackDepth, lineTable, dictKeys, unstartedThreads, opcodeNames,
                    unexported, splitDictValues);
        }
    }

    public static Optional<VersionLayout> forVersion(PythonVersion version) {
        return SUPPORTED.stream().filter(v -> v.is(version.major(), version.minor())).findFirst().map(Supported::layout);
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
