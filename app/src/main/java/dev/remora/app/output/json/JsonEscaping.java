package dev.remora.app.output.json;

import java.io.IOException;
import java.io.Writer;

/**
 * How a {@link JsonWriter} quotes strings. Every mode escapes control characters and unpaired
 * surrogates: names read from a target can hold anything a Python str can, lone surrogates
 * (surrogateescape file names) included, which UTF-8 cannot encode and a JSON escape can.
 */
public enum JsonEscaping {

    /** What JSON itself requires, and unpaired surrogates. */
    PLAIN,

    /**
     * Also safe inside an HTML {@code <script>} element: no {@code <} (so neither {@code </script>}
     * nor {@code <!--} can end or alter the element), no {@code >} or {@code &}, and no U+2028 or
     * U+2029 (line terminators to older JavaScript parsers).
     */
    HTML_SCRIPT;

    void quote(Writer out, String s) throws IOException {
        out.write('"');
        int plain = 0;
        for (int i = 0; i < s.length(); i++) {
            String escape = escape(s, i);
            if (escape != null) {
                // Runs of characters that need no escape go out in one call.
                out.write(s, plain, i - plain);
                out.write(escape);
                plain = i + 1;
            }
        }
        out.write(s, plain, s.length() - plain);
        out.write('"');
    }

    /** The escape for the character at {@code i}, or null where it stands as it is. */
    private String escape(String s, int i) {
        char c = s.charAt(i);
        return switch (c) {
            case '"' -> "\\\"";
            case '\\' -> "\\\\";
            case '\n' -> "\\n";
            case '\r' -> "\\r";
            case '\t' -> "\\t";
            default -> c < 0x20 || isUnpairedSurrogate(s, i) || escapesForHtml(c) ? "\\u%04x".formatted((int) c) : null;
        };
    }

    private boolean escapesForHtml(char c) {
        return this == HTML_SCRIPT && (c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029');
    }

    private static boolean isUnpairedSurrogate(String s, int i) {
        char c = s.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(s.charAt(i - 1));
        }
        return false;
    }
}
