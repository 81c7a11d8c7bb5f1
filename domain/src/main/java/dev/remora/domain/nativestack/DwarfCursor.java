package dev.remora.domain.nativestack;

import java.nio.charset.StandardCharsets;

/**
 * Reads little-endian and LEB128 fields from a window {@code [position, limit)} of a byte array;
 * every read past the window is a {@link NativeDataException}, never an index error.
 */
final class DwarfCursor {

    private final byte[] bytes;
    private final int start;
    private final int limit;
    private int position;

    DwarfCursor(byte[] bytes, int position, int limit) throws NativeDataException {
        if (position < 0 || limit < position || limit > bytes.length) {
            throw new NativeDataException("range %d..%d outside %d bytes".formatted(position, limit, bytes.length));
        }
        this.bytes = bytes;
        this.start = position;
        this.position = position;
        this.limit = limit;
    }

    byte[] bytes() {
        return bytes;
    }

    int position() {
        return position;
    }

    boolean atEnd() {
        return position >= limit;
    }

    /** Moves to {@code to}, which must lie in the window (its end included). */
    void seek(int to) throws NativeDataException {
        if (to < start || to > limit) {
            throw new NativeDataException("seek to %d outside %d..%d".formatted(to, start, limit));
        }
        position = to;
    }

    void skip(long count) throws NativeDataException {
        need(count);
        position += (int) count;
    }

    int u8() throws NativeDataException {
        need(1);
        return bytes[position++] & 0xff;
    }

    int u16() throws NativeDataException {
        need(2);
        int v = (bytes[position] & 0xff) | (bytes[position + 1] & 0xff) << 8;
        position += 2;
        return v;
    }

    long u32() throws NativeDataException {
        need(4);
        long v = 0;
        for (int i = 3; i >= 0; i--) {
            v = v << 8 | (bytes[position + i] & 0xff);
        }
        position += 4;
        return v;
    }

    long u64() throws NativeDataException {
        need(8);
        return u32() | u32() << 32;
    }

    long uleb() throws NativeDataException {
        long result = 0;
        int shift = 0;
        while (true) {
            int b = u8();
            if (shift < 64) {
                result |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
            if ((b & 0x80) == 0) {
                return result;
            }
            if (shift > 70) {
                throw new NativeDataException("LEB128 number longer than 10 bytes");
            }
        }
    }

    long sleb() throws NativeDataException {
        long result = 0;
        int shift = 0;
        int b;
        do {
            b = u8();
            if (shift < 64) {
                result |= (long) (b & 0x7f) << shift;
            }
            shift += 7;
            if (shift > 70) {
                throw new NativeDataException("LEB128 number longer than 10 bytes");
            }
        } while ((b & 0x80) != 0);
        if (shift < 64 && (b & 0x40) != 0) {
            result |= -1L << shift;
        }
        return result;
    }

    /** A NUL-terminated ASCII string, at most {@code max} bytes before the NUL. */
    String cString(int max) throws NativeDataException {
        int start = position;
        int end = start;
        while (end < limit && bytes[end] != 0) {
            if (end - start >= max) {
                throw new NativeDataException("string longer than " + max);
            }
            end++;
        }
        if (end >= limit) {
            throw new NativeDataException("unterminated string");
        }
        position = end + 1;
        return new String(bytes, start, end - start, StandardCharsets.ISO_8859_1);
    }

    /** A count of bytes that must lie inside the window: a length read from the data, checked. */
    int length(long count) throws NativeDataException {
        need(count);
        return (int) count;
    }

    private void need(long count) throws NativeDataException {
        if (count < 0 || count > limit - position) {
            throw new NativeDataException("0x%x bytes needed at %d, window ends at %d".formatted(count, position, limit));
        }
    }
}
