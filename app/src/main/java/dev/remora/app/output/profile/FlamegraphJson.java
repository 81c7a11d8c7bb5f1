package dev.remora.app.output.profile;

/**
 * JSON values safe to embed in an HTML {@code <script>} element: besides JSON's own escapes, no
 * {@code <} (so neither {@code </script>} nor {@code <!--} can end or alter the element), no
 * U+2028/U+2029 (line terminators to older JavaScript parsers) and no unpaired surrogate (which
 * UTF-8 cannot carry).
 */
final class FlamegraphJson {

    private FlamegraphJson() {}

    static void string(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029'
                            || unpairedSurrogate(s, i)) {
                        out.append("\\u%04x".formatted((int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    /** A number, or null for NaN and infinities, which JSON cannot express. */
    static void number(StringBuilder out, double value) {
        out.append(Double.isFinite(value) ? Double.toString(value) : "null");
    }

    private static boolean unpairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 == s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }
}
