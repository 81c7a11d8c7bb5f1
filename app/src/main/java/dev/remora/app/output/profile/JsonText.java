package dev.remora.app.output.profile;

import dev.remora.app.output.Json;

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
        Json.appendString(b, s);
    }
}
