package dev.remora.app.output.profile;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;

/**
 * Writes JSON as it goes, so a profile with millions of samples never exists as a tree in memory.
 * Callers open and close containers in order; the stream only places the commas and colons.
 */
final class JsonStream {

    private final Writer out;
    /** Whether the next value or member name follows a sibling and needs a comma first. */
    private boolean afterValue;

    JsonStream(OutputStream out) {
        this.out = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16);
    }

    JsonStream beginObject() throws IOException {
        separate();
        out.write('{');
        afterValue = false;
        return this;
    }

    JsonStream endObject() throws IOException {
        out.write('}');
        afterValue = true;
        return this;
    }

    JsonStream beginArray() throws IOException {
        separate();
        out.write('[');
        afterValue = false;
        return this;
    }

    JsonStream endArray() throws IOException {
        out.write(']');
        afterValue = true;
        return this;
    }

    /** A member name; the next call writes its value. */
    JsonStream name(String name) throws IOException {
        separate();
        writeString(name);
        out.write(':');
        afterValue = false;
        return this;
    }

    JsonStream value(String s) throws IOException {
        separate();
        writeString(s);
        afterValue = true;
        return this;
    }

    JsonStream value(long n) throws IOException {
        return raw(Long.toString(n));
    }

    JsonStream value(boolean b) throws IOException {
        return raw(b ? "true" : "false");
    }

    JsonStream nullValue() throws IOException {
        return raw("null");
    }

    /** A number, or null where the value is absent (negative), as line and column numbers are. */
    JsonStream optional(long n) throws IOException {
        return n < 0 ? nullValue() : value(n);
    }

    /**
     * {@code nanos} in milliseconds, as an exact decimal: profile times are whole nanoseconds, and
     * going through a double would print binary noise such as 0.30000000000000004.
     */
    JsonStream millis(long nanos) throws IOException {
        return raw(decimal(nanos, 1_000_000));
    }

    /** Flushes what is buffered; the underlying stream stays open, it belongs to the caller. */
    void flush() throws IOException {
        out.flush();
    }

    private JsonStream raw(String token) throws IOException {
        separate();
        out.write(token);
        afterValue = true;
        return this;
    }

    private void separate() throws IOException {
        if (afterValue) {
            out.write(',');
        }
    }

    static String decimal(long value, long unitsPerWhole) {
        long whole = value / unitsPerWhole;
        long fraction = Math.abs(value % unitsPerWhole);
        String sign = value < 0 && whole == 0 ? "-" : "";
        if (fraction == 0) {
            return sign + whole;
        }
        String digits = Long.toString(fraction + unitsPerWhole).substring(1);
        int end = digits.length();
        while (digits.charAt(end - 1) == '0') {
            end--;
        }
        return sign + whole + "." + digits.substring(0, end);
    }

    private void writeString(String s) throws IOException {
        out.write('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.write("\\\"");
                case '\\' -> out.write("\\\\");
                case '\n' -> out.write("\\n");
                case '\r' -> out.write("\\r");
                case '\t' -> out.write("\\t");
                default -> {
                    if (c < 0x20 || isLoneSurrogate(s, i)) {
                        // Python strings may hold lone surrogates (surrogateescape file names); UTF-8
                        // cannot encode them, a JSON escape can.
                        out.write("\\u%04x".formatted((int) c));
                    } else {
                        out.write(c);
                    }
                }
            }
        }
        out.write('"');
    }

    private static boolean isLoneSurrogate(String s, int i) {
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
