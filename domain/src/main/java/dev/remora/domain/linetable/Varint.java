package dev.remora.domain.linetable;

/**
 * The line table's variable-length integers: 6-bit chunks, least significant first,
 * 0x40 set on every chunk but the last.
 *
 * <p>A read returns the value and the offset after it packed in one {@code long}, so the
 * caller's walk allocates nothing. {@link #MALFORMED} is never a valid packing (the offset
 * half is then -1), and reading at a negative offset yields it again, so a chain of reads
 * needs only one check at its end.
 */
final class Varint {

    static final long MALFORMED = -1L;

    /** Six chunks already carry 36 bits; a longer varint is garbage, not a line number. */
    private static final int MAX_CHUNKS = 6;
    private static final int CHUNK_BITS = 6;
    private static final int CHUNK_MASK = 0x3F;
    private static final int MORE = 0x40;
    private static final int ENTRY_START = 0x80;

    private Varint() {
    }

    /**
     * Reads the varint at {@code offset} of {@code bytes[0, limit)}. Malformed when it runs
     * past {@code limit}, meets the start byte of the next entry, or is too long.
     */
    static long read(byte[] bytes, int offset, int limit) {
        if (offset < 0) {
            return MALFORMED;
        }
        int value = 0;
        for (int chunk = 0; chunk < MAX_CHUNKS; chunk++) {
            int at = offset + chunk;
            if (at >= limit) {
                return MALFORMED;
            }
            int b = bytes[at] & 0xFF;
            if ((b & ENTRY_START) != 0) {
                return MALFORMED;
            }
            // Bits shifted past 32 are dropped, as CPython's unsigned int arithmetic does.
            value |= (b & CHUNK_MASK) << (chunk * CHUNK_BITS);
            if ((b & MORE) == 0) {
                return ((long) (at + 1) << 32) | (value & 0xFFFF_FFFFL);
            }
        }
        return MALFORMED;
    }

    static int value(long packed) {
        return (int) packed;
    }

    /** Offset after the varint, or -1 when {@code packed} is {@link #MALFORMED}. */
    static int next(long packed) {
        return (int) (packed >> 32);
    }

    /** The signed reading: the low bit is the sign, the rest the magnitude. */
    static int signed(int raw) {
        int magnitude = raw >>> 1;
        return (raw & 1) != 0 ? -magnitude : magnitude;
    }
}
