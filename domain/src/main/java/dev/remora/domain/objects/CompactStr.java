package dev.remora.domain.objects;

import dev.remora.domain.offsets.DebugOffsets;

/**
 * Where a compact {@code str}'s characters are and how wide each is, from its head: the one reading
 * of {@code PyASCIIObject.state} (GIL builds: interned:2, kind:3, compact:1, ascii:1) and length.
 *
 * @param kind bytes per character: 1 (ASCII and Latin-1), 2 or 4
 * @param data where the characters start
 */
public record CompactStr(int kind, long length, long data) {

    private static final int KIND_SHIFT = 2;
    private static final int KIND_MASK = 0b111;
    private static final int COMPACT_BIT = 1 << 5;
    private static final int ASCII_BIT = 1 << 6;

    /** @throws MalformedObjectException when the head is not that of a compact str no longer than {@code maxLength} */
    public static CompactStr of(long address, int state, long length, long maxLength, DebugOffsets.Unicode unicode)
            throws MalformedObjectException {
        if ((state & COMPACT_BIT) == 0) {
            throw new MalformedObjectException("legacy (non-compact) str at 0x%x".formatted(address));
        }
        if (length < 0 || length > maxLength) {
            throw new MalformedObjectException("str length %d at 0x%x".formatted(length, address));
        }
        int kind = (state >>> KIND_SHIFT) & KIND_MASK;
        boolean ascii = (state & ASCII_BIT) != 0;
        if (kind != 1 && kind != 2 && kind != 4 || ascii && kind != 1) {
            throw new MalformedObjectException("str kind %d at 0x%x".formatted(kind, address));
        }
        return new CompactStr(kind, length, address + (ascii ? unicode.asciiDataOffset() : unicode.compactDataOffset()));
    }
}
