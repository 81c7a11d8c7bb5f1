package dev.remora.domain.nativestack;

import java.nio.charset.StandardCharsets;

/**
 * The string sections a DWARF 5 line table header points into: {@code .debug_line_str} and
 * {@code .debug_str}; either may be empty.
 */
record LineStrings(byte[] lineStr, byte[] str) {

    /** The longest path read, the usual PATH_MAX. */
    static final int MAX_PATH = 4096;

    /** The NUL-terminated string at {@code offset} in {@code section}. */
    static String at(byte[] section, long offset) throws NativeDataException {
        if (offset < 0 || offset >= section.length) {
            throw new NativeDataException("string offset 0x%x outside %d bytes".formatted(offset, section.length));
        }
        int start = (int) offset;
        int end = start;
        while (end < section.length && section[end] != 0) {
            if (end - start >= MAX_PATH) {
                throw new NativeDataException("string longer than " + MAX_PATH);
            }
            end++;
        }
        if (end >= section.length) {
            throw new NativeDataException("unterminated string at 0x%x".formatted(offset));
        }
        return new String(section, start, end - start, StandardCharsets.UTF_8);
    }

    /** The NUL-terminated string at the cursor, which moves past its NUL. */
    static String inline(DwarfCursor cursor) throws NativeDataException {
        int start = cursor.position();
        int length = 0;
        while (cursor.u8() != 0) {
            if (++length > MAX_PATH) {
                throw new NativeDataException("string longer than " + MAX_PATH);
            }
        }
        return new String(cursor.bytes(), start, length, StandardCharsets.UTF_8);
    }
}
