package dev.remora.domain.locals;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Objects;

/**
 * The text CPython's {@code repr()} gives (3.8 to 3.15) for values already read out of a target
 * process, so that locals are shown exactly as the program itself would print them.
 */
public final class PythonRepr {

    private static final String HEX = "0123456789abcdef";
    private static final int MAX_CODE_POINT = 0x10FFFF;
    private static final String TRUNCATED = "...";

    private PythonRepr() {
    }

    /**
     * The repr of a {@code str} given as its code points, as {@code unicode_repr} writes it: lone
     * surrogates stay escaped one by one, since a Python string may hold them. Past
     * {@code maxChars} code points the rest is dropped and {@code ...} follows the closing quote,
     * so a huge string read from the target costs no more than what is shown.
     *
     * @throws IllegalArgumentException if {@code maxChars} is negative or a code point is outside
     *     0..0x10FFFF, which no Python string holds
     */
    public static String ofStr(int[] codePoints, int maxChars) {
        Objects.requireNonNull(codePoints, "codePoints");
        requireNonNegative(maxChars, "maxChars");
        int length = Math.min(codePoints.length, maxChars);
        boolean single = false;
        boolean dbl = false;
        for (int i = 0; i < length; i++) {
            int c = codePoints[i];
            if (c < 0 || c > MAX_CODE_POINT) {
                throw new IllegalArgumentException("not a code point: " + c);
            }
            single |= c == '\'';
            dbl |= c == '"';
        }
        char quote = single && !dbl ? '"' : '\'';
        StringBuilder out = new StringBuilder(length + 2).append(quote);
        for (int i = 0; i < length; i++) {
            int c = codePoints[i];
            if (c == quote || c == '\\') {
                out.append('\\').appendCodePoint(c);
            } else if (c == '\t') {
                out.append("\\t");
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '\r') {
                out.append("\\r");
            } else if (c < 0x20 || c == 0x7F) {
                appendHex(out, 'x', c, 2);
            } else if (c < 0x7F || isPrintable(c)) {
                out.appendCodePoint(c);
            } else if (c < 0x100) {
                appendHex(out, 'x', c, 2);
            } else if (c < 0x10000) {
                appendHex(out, 'u', c, 4);
            } else {
                appendHex(out, 'U', c, 8);
            }
        }
        out.append(quote);
        if (codePoints.length > length) {
            out.append(TRUNCATED);
        }
        return out.toString();
    }

    /**
     * The repr of a {@code bytes} object, as {@code PyBytes_Repr} writes it; past {@code maxBytes}
     * bytes the rest is dropped and {@code ...} follows the closing quote.
     *
     * @throws IllegalArgumentException if {@code maxBytes} is negative
     */
    public static String ofBytes(byte[] data, int maxBytes) {
        Objects.requireNonNull(data, "data");
        requireNonNegative(maxBytes, "maxBytes");
        int length = Math.min(data.length, maxBytes);
        boolean single = false;
        boolean dbl = false;
        for (int i = 0; i < length; i++) {
            single |= data[i] == '\'';
            dbl |= data[i] == '"';
        }
        char quote = single && !dbl ? '"' : '\'';
        StringBuilder out = new StringBuilder(length + 3).append('b').append(quote);
        for (int i = 0; i < length; i++) {
            int b = data[i] & 0xFF;
            if (b == quote || b == '\\') {
                out.append('\\').append((char) b);
            } else if (b == '\t') {
                out.append("\\t");
            } else if (b == '\n') {
                out.append("\\n");
            } else if (b == '\r') {
                out.append("\\r");
            } else if (b < 0x20 || b >= 0x7F) {
                appendHex(out, 'x', b, 2);
            } else {
                out.append((char) b);
            }
        }
        out.append(quote);
        if (data.length > length) {
            out.append(TRUNCATED);
        }
        return out.toString();
    }

    /**
     * The repr of a {@code float}: the shortest digits that read back to the same value, laid out
     * as {@code float_repr} does ({@code 1e+16}, {@code 1e-05}, {@code 100.0}), which differs from
     * Java's own layout.
     */
    public static String ofFloat(double value) {
        if (Double.isNaN(value)) {
            return "nan";
        }
        if (Double.isInfinite(value)) {
            return value > 0 ? "inf" : "-inf";
        }
        String sign = Math.copySign(1.0, value) < 0 ? "-" : "";
        if (value == 0.0) {
            return sign + "0.0";
        }
        double magnitude = Math.abs(value);
        String text = Double.toString(magnitude);
        int e = text.indexOf('E');
        String mantissa = e < 0 ? text : text.substring(0, e);
        int exponent = e < 0 ? 0 : Integer.parseInt(text.substring(e + 1));
        int dot = mantissa.indexOf('.');
        String digits = mantissa.substring(0, dot) + mantissa.substring(dot + 1);
        int decpt = dot + exponent;
        int first = 0;
        while (digits.charAt(first) == '0') {
            first++;
        }
        int last = digits.length();
        while (digits.charAt(last - 1) == '0') {
            last--;
        }
        digits = digits.substring(first, last);
        decpt -= first;
        if (digits.length() == 2) {
            // Java may pick two digits where one would read back; Python takes the shortest.
            BigDecimal oneDigit = closestOneDigit(magnitude);
            if (oneDigit != null) {
                digits = oneDigit.unscaledValue().toString();
                decpt = 1 - oneDigit.scale();
            }
        }
        return sign + layOut(digits, decpt);
    }

    /** The repr of an {@code int}: its decimal text, kept beside the others so callers need not know. */
    public static String ofInt(BigInteger value) {
        return Objects.requireNonNull(value, "value").toString();
    }

    /** Whether CPython's {@code Py_UNICODE_ISPRINTABLE} holds: not a control, format, separator or unassigned. */
    private static boolean isPrintable(int c) {
        return switch (Character.getType(c)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE,
                    Character.UNASSIGNED, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR -> false;
            case Character.SPACE_SEPARATOR -> c == ' ';
            default -> true;
        };
    }

    /** The one-digit decimal nearest to {@code magnitude} that still reads back to it, or null if none does. */
    private static BigDecimal closestOneDigit(double magnitude) {
        BigDecimal exact = new BigDecimal(magnitude);
        BigDecimal best = null;
        for (RoundingMode mode : new RoundingMode[] {RoundingMode.FLOOR, RoundingMode.CEILING}) {
            BigDecimal candidate = exact.round(new MathContext(1, mode)).stripTrailingZeros();
            if (candidate.signum() == 0 || candidate.doubleValue() != magnitude) {
                continue;
            }
            if (best == null
                    || candidate.subtract(exact).abs().compareTo(best.subtract(exact).abs()) < 0) {
                best = candidate;
            }
        }
        return best;
    }

    /** Python's layout of digits {@code 0.D × 10^decpt}: fixed for moderate exponents, else exponent form. */
    private static String layOut(String digits, int decpt) {
        StringBuilder out = new StringBuilder(digits.length() + 8);
        if (decpt <= -4 || decpt > 16) {
            out.append(digits.charAt(0));
            if (digits.length() > 1) {
                out.append('.').append(digits, 1, digits.length());
            }
            int exponent = decpt - 1;
            out.append('e').append(exponent < 0 ? '-' : '+');
            int abs = Math.abs(exponent);
            if (abs < 10) {
                out.append('0');
            }
            return out.append(abs).toString();
        }
        if (decpt <= 0) {
            out.append("0.").repeat('0', -decpt).append(digits);
        } else if (decpt >= digits.length()) {
            out.append(digits).repeat('0', decpt - digits.length()).append(".0");
        } else {
            out.append(digits, 0, decpt).append('.').append(digits, decpt, digits.length());
        }
        return out.toString();
    }

    private static void appendHex(StringBuilder out, char kind, int value, int width) {
        out.append('\\').append(kind);
        for (int shift = 4 * (width - 1); shift >= 0; shift -= 4) {
            out.append(HEX.charAt((value >>> shift) & 0xF));
        }
    }

    private static void requireNonNegative(int limit, String name) {
        if (limit < 0) {
            throw new IllegalArgumentException(name + " must be >= 0: " + limit);
        }
    }
}
