package dev.remora.app.output.profile;

/**
 * Builds one line of compact JSON. Commas are placed by the builder, strings are escaped so that
 * every line is valid JSON whatever a target's names contain (lone surrogates included).
 */
final class JsonText {

    private final StringBuilder b = new StringBuilder(256);
    private boolean comma;

    JsonText beginObject() {
        separate();
        b.append('{');
        comma = false;
        return this;
    }

    JsonText endObject() {
        b.append('}');
        comma = true;
        return this;
    }

    JsonText beginArray() {
        separate();
        b.append('[');
        comma = false;
        return this;
    }

    JsonText endArray() {
        b.append(']');
        comma = true;
        return this;
    }

    JsonText name(String name) {
        separate();
        string(name);
        b.append(':');
        comma = false;
        return this;
    }

    JsonText value(long v) {
        separate();
        b.append(v);
        comma = true;
        return this;
    }

    /** An unsigned 64-bit number (OS thread ids). */
    JsonText unsignedValue(long v) {
        separate();
        b.append(Long.toUnsignedString(v));
        comma = true;
        return this;
    }

    /** A number, or null for NaN and infinities, which JSON cannot hold. */
    JsonText value(double v) {
        separate();
        b.append(Double.isFinite(v) ? Double.toString(v) : "null");
        comma = true;
        return this;
    }

    JsonText value(String v) {
        separate();
        string(v);
        comma = true;
        return this;
    }

    JsonText field(String name, long v) {
        return name(name).value(v);
    }

    JsonText field(String name, double v) {
        return name(name).value(v);
    }

    JsonText field(String name, String v) {
        return name(name).value(v);
    }

    @Override
    public String toString() {
        return b.toString();
    }

    private void separate() {
        if (comma) {
            b.append(',');
        }
    }

    private void string(String s) {
        b.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> {
                    boolean pairedSurrogate = Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))
                            || Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(s.charAt(i - 1));
                    if (c < 0x20 || Character.isSurrogate(c) && !pairedSurrogate) {
                        b.append("\\u%04x".formatted((int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        b.append('"');
    }
}
