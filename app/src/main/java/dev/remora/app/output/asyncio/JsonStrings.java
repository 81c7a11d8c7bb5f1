package dev.remora.app.output.asyncio;

/**
 * JSON string and number syntax for the async writer. Task names come from the target and can hold
 * anything a Python str can, lone surrogates included: those are escaped, so the document stays
 * valid JSON in any encoding.
 */
final class JsonStrings {

    private JsonStrings() {}

    static String quote(String s) {
        StringBuilder b = new StringBuilder(s.length() + 2).append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    boolean paired = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
                    if (paired) {
                        b.append(c).append(s.charAt(++i));
                    } else if (c < 0x20 || Character.isSurrogate(c)) {
                        b.append("\\u%04x".formatted((int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    /** A number, or null where the value is absent (negative). */
    static String optionalNumber(int value) {
        return value < 0 ? "null" : Integer.toString(value);
    }
}
