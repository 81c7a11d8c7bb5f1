package dev.remora.app.output.profile;

import java.io.ByteArrayOutputStream;

/**
 * UTF-8 as Python's "surrogatepass" error handler writes it. Names read from a target can hold lone
 * surrogates (Python strings may); Java's encoder would turn them into '?', Python's profiler and
 * marshal keep them as three-byte sequences, and so do we.
 */
public final class Utf8 {

    private Utf8() {}

    public static byte[] encode(String s) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(s.length() + 16);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out.write(c);
            } else if (c < 0x800) {
                out.write(0xc0 | c >> 6);
                out.write(0x80 | c & 0x3f);
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                out.write(0xf0 | cp >> 18);
                out.write(0x80 | cp >> 12 & 0x3f);
                out.write(0x80 | cp >> 6 & 0x3f);
                out.write(0x80 | cp & 0x3f);
            } else {
                out.write(0xe0 | c >> 12);
                out.write(0x80 | c >> 6 & 0x3f);
                out.write(0x80 | c & 0x3f);
            }
        }
        return out.toByteArray();
    }

    public static boolean isAscii(String s) {
        for (int i = 0; i < s.length(); i++) {
            if (s.charAt(i) >= 0x80) {
                return false;
            }
        }
        return true;
    }
}
