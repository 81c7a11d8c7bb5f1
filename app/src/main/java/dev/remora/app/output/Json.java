package dev.remora.app.output;

/** The few pieces of JSON syntax the writers need; keeps the app free of a JSON library. */
final class Json {

    private Json() {}

    static String string(String s) {
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
                    if (c < 0x20) {
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
