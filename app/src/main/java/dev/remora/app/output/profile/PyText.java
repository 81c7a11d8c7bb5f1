package dev.remora.app.output.profile;

import dev.remora.domain.locals.PythonRepr;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The few pieces of Python's text behaviour the pstats formats must reproduce so that output and
 * ordering match CPython's profiler character for character.
 */
public final class PyText {

    private PyText() {}

    /**
     * {@code f"{value:.{decimals}f}"}. Python rounds the exact binary value half to even, while
     * {@code String.format} rounds the shortest decimal form half up (0.125 gives 0.12 in Python,
     * 0.13 in Java), so the exact value goes through BigDecimal.
     */
    public static String fixed(double value, int decimals) {
        if (!Double.isFinite(value)) {
            return Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
        }
        String s = new BigDecimal(value).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
        // Python keeps the sign of a negative value that rounds to zero ("-0.0").
        return value < 0 || (value == 0 && 1 / value < 0) ? (s.startsWith("-") ? s : "-" + s) : s;
    }

    /** {@code f"{s:>{width}}"}: Python counts code points, not UTF-16 units. */
    public static String right(String s, int width) {
        int missing = width - s.codePointCount(0, s.length());
        return missing <= 0 ? s : " ".repeat(missing) + s;
    }

    /** {@code os.path.basename} on POSIX: everything after the last slash. */
    public static String basename(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Python's string order: by code point (UTF-16 order differs above U+FFFF). */
    public static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
    }

    /** {@code repr(s)}: quotes chosen as Python chooses them, non-printable characters escaped. */
    public static String repr(String s) {
        return PythonRepr.ofStr(s.codePoints().toArray(), Integer.MAX_VALUE);
    }
}
