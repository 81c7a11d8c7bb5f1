package dev.remora.domain.offsets;

import java.util.Optional;

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
 * @param executableTagBits low bits of {@code f_executable} used as tags (3.14+ stores a
 *     {@code _PyStackRef})
 * @param compactUnicodeExtra bytes a {@code PyCompactUnicodeObject} adds to a {@code PyASCIIObject}
 *     (utf8_length and utf8), used where the target does not export the compact size (before 3.15)
 */
public record VersionLayout(DebugOffsetsLayout offsets, int[] entryFrameOwners, int maxFrameOwner,
                            long executableTagBits, int compactUnicodeExtra) {

    private static final VersionLayout V3_13 = new VersionLayout(DebugOffsetsLayout.V3_13, new int[] {3}, 3, 0, 16);
    private static final VersionLayout V3_14 = new VersionLayout(DebugOffsetsLayout.V3_14, new int[] {3, 4}, 4, 3, 16);
    private static final VersionLayout V3_15 = new VersionLayout(DebugOffsetsLayout.V3_15, new int[] {3}, 3, 3, 16);

    public static Optional<VersionLayout> forVersion(PythonVersion version) {
        return DebugOffsetsLayout.forVersion(version).map(layout -> switch (layout) {
            case V3_13 -> V3_13;
            case V3_14 -> V3_14;
            case V3_15 -> V3_15;
        });
    }

    public boolean isEntryFrameOwner(int owner) {
        for (int o : entryFrameOwners) {
            if (o == owner) {
                return true;
            }
        }
        return false;
    }

    public long untagExecutable(long pointer) {
        return pointer & ~executableTagBits;
    }
}
