package dev.remora.domain.offsets;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What differs between CPython minor versions beyond the field order of {@code _Py_DebugOffsets}:
 * constants and pointer conventions the debug offsets do not export. The walker asks this record;
 * it never checks version numbers itself.
 *
 * @param offsets field order of the debug offsets struct
 * @param entryFrameOwners frame owners that mark C-stack or interpreter entry frames, which carry no
 *     Python code and are skipped (3.13 FRAME_OWNED_BY_CSTACK=3; 3.14 INTERPRETER=3 and CSTACK=4;
 *     3.15 INTERPRETER=3)
 * @param maxFrameOwner the largest valid owner value; anything above means the frame is garbage
 * @param stackRefTagBits low bits of a {@code _PyStackRef} used as tags ({@code Py_TAG_BITS}); 3.14+
 *     also stores {@code f_executable} as one
 * @param compactUnicodeExtra bytes a {@code PyCompactUnicodeObject} adds to a {@code PyASCIIObject}
 *     (utf8_length and utf8), used where the target does not export the compact size (before 3.15)
 * @param generatorFrameOwner {@code FRAME_OWNED_BY_GENERATOR}: the owner of the frame embedded in a
 *     generator or coroutine (1 in 3.13-3.15)
 * @param generatorStates the values of {@code gi_frame_state}, renumbered in 3.15
 * @param awaitedStackDepth where a coroutine suspended in {@code await} keeps the awaited object:
 *     {@code stackpointer[-depth]}: 3.14 peeks at [-1] ({@code _PyFrame_StackPeek(f)}), 3.15 at [-2]
 *     (its {@code _PyFrame_StackPeek} takes a depth), as CPython's own remote unwinder of each
 *     version reads it; absent where the target does not export the frame's stack pointer (3.13)
 * @param dictKeys the layout of a dict's keys object, for reading {@code sys.modules}
 * @param opcodeNames instruction names by opcode (the low byte of a code unit), specialised forms
 *     named after the instruction they stand for
 */
public record VersionLayout(DebugOffsetsLayout offsets, int[] entryFrameOwners, int maxFrameOwner,
                            long stackRefTagBits, int compactUnicodeExtra, int generatorFrameOwner,
                            GeneratorStates generatorStates, OptionalInt awaitedStackDepth,
                            DictKeysLayout dictKeys, List<String> opcodeNames) {

    /** 3.13 and 3.14: CREATED=-3, SUSPENDED=-2, SUSPENDED_YIELD_FROM=-1, EXECUTING=0, COMPLETED=1, CLEARED=4. */
    private static final GeneratorStates STATES_3_13 =
            new GeneratorStates(-3, -2, -1, OptionalInt.empty(), 0, OptionalInt.of(1), 4);
    /** 3.15: CREATED=0, SUSPENDED=1, SUSPENDED_YIELD_FROM=2, SUSPENDED_YIELD_FROM_LOCKED=3, EXECUTING=4, CLEARED=5. */
    private static final GeneratorStates STATES_3_15 =
            new GeneratorStates(0, 1, 2, OptionalInt.of(3), 4, OptionalInt.empty(), 5);

    private static final VersionLayout V3_13 = new VersionLayout(DebugOffsetsLayout.V3_13, new int[] {3}, 3, 0, 16,
            1, STATES_3_13, OptionalInt.empty(), DictKeysLayout.V3_13_TO_3_15, OpcodeNames.V3_13);
    private static final VersionLayout V3_14 = new VersionLayout(DebugOffsetsLayout.V3_14, new int[] {3, 4}, 4, 3, 16,
            1, STATES_3_13, OptionalInt.of(1), DictKeysLayout.V3_13_TO_3_15, OpcodeNames.V3_14);
    private static final VersionLayout V3_15 = new VersionLayout(DebugOffsetsLayout.V3_15, new int[] {3}, 3, 3, 16,
            1, STATES_3_15, OptionalInt.of(2), DictKeysLayout.V3_13_TO_3_15, OpcodeNames.V3_15);

    public static Optional<VersionLayout> forVersion(PythonVersion version) {
        return DebugOffsetsLayout.forVersion(version).map(layout -> switch (layout) {
            case V3_13 -> V3_13;
            case V3_14 -> V3_14;
            case V3_15 -> V3_15;
        });
    }

    /** The name of the instruction whose code unit is {@code codeUnit}, or empty for an unknown opcode. */
    public String opcodeName(int codeUnit) {
        int opcode = codeUnit & 0xFF;
        return opcode < opcodeNames.size() ? opcodeNames.get(opcode) : "";
    }

    /**
     * {@code FRAME_OWNED_BY_THREAD}: a frame on the thread's data stack, popped only by returning or
     * unwinding, which move a profiler's frame marker off it (entry frames and yielding generators
     * leave the marker behind). The same value in every supported version.
     */
    public boolean isThreadFrameOwner(int owner) {
        return owner == 0;
    }

    public boolean isEntryFrameOwner(int owner) {
        for (int o : entryFrameOwners) {
            if (o == owner) {
                return true;
            }
        }
        return false;
    }

    /** The object a {@code _PyStackRef} (a value-stack slot, or 3.14+'s {@code f_executable}) refers to. */
    public long untagStackRef(long ref) {
        return ref & ~stackRefTagBits;
    }
}
