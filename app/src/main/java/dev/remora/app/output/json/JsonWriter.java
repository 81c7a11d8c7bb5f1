package dev.remora.app.output.json;

import java.io.BufferedWriter;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;

/**
 * Writes compact JSON as it goes, so a profile with millions of samples never exists as a tree in
 * memory. Callers open and close containers in order; the writer places the commas and colons and
 * escapes strings.
 */
public final class JsonWriter implements Flushable {

    /** What writes a document; see {@link #text(Body)}. */
    @FunctionalInterface
    public interface Body {
        void write(JsonWriter json) throws IOException;
    }

    private final Writer out;
    private final JsonEscaping escaping;
    /** Whether the next value or member name follows a sibling and needs a comma first. */
    private boolean afterValue;

    public JsonWriter(Writer out, JsonEscaping escaping) {
        this.out = out;
        this.escaping = escaping;
    }

    public JsonWriter(Writer out) {
        this(out, JsonEscaping.PLAIN);
    }

    /** UTF-8 to {@code out}, buffered until {@link #flush()}; the stream stays the caller's to close. */
    public static JsonWriter utf8(OutputStream out) {
        return new JsonWriter(new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), 1 << 16));
    }

    /** A small document (one line, one report) as a string. */
    public static String text(Body body) {
        return text(JsonEscaping.PLAIN, body);
    }

    public static String text(JsonEscaping escaping, Body body) {
        StringWriter text = new StringWriter();
        try {
            body.write(new JsonWriter(text, escaping));
        } catch (IOException e) {
            // A StringWriter never fails; only the body's own input could.
            throw new UncheckedIOException(e);
        }
        return text.toString();
    }

    public JsonWriter beginObject() throws IOException {
        return open('{');
    }

    public JsonWriter endObject() throws IOException {
        return close('}');
    }

    public JsonWriter beginArray() throws IOException {
        return open('[');
    }

    public JsonWriter endArray() throws IOException {
        return close(']');
    }

    /** A member name; the next call writes its value. */
    public JsonWriter name(String name) throws IOException {
        separate();
        escaping.quote(out, name);
        out.write(':');
        afterValue = false;
        return this;
    }

    /** A string, or null for null. */
    public JsonWriter value(String s) throws IOException {
        if (s == null) {
            return nullValue();
        }
        separate();
        escaping.quote(out, s);
        afterValue = true;
        return this;
    }

    public JsonWriter value(long n) throws IOException {
        return raw(Long.toString(n));
    }

    /** A number, or null for NaN and infinities, which JSON cannot hold. */
    public JsonWriter value(double n) throws IOException {
        return Double.isFinite(n) ? raw(Double.toString(n)) : nullValue();
    }

    public JsonWriter value(boolean b) throws IOException {
        return raw(b ? "true" : "false");
    }

    public JsonWriter nullValue() throws IOException {
        return raw("null");
    }

    /** An unsigned 64-bit number, such as an OS thread id. */
    public JsonWriter unsignedValue(long n) throws IOException {
        return raw(Long.toUnsignedString(n));
    }

    /** A number, or null where the value is absent (negative), as line and column numbers are. */
    public JsonWriter optional(long n) throws IOException {
        return n < 0 ? nullValue() : value(n);
    }

    /**
     * {@code nanos} in milliseconds, as an exact decimal: profile times are whole nanoseconds, and
     * going through a double would print binary noise such as 0.30000000000000004.
     */
    public JsonWriter millis(long nanos) throws IOException {
        return raw(decimal(nanos, 1_000_000));
    }

    /**
     * {@code n} rounded half up to {@code places} decimals, all of them written ("99.00"), as a
     * measurement is reported to the precision it has; null for NaN and infinities.
     */
    public JsonWriter rounded(double n, int places) throws IOException {
        return Double.isFinite(n) ? raw(BigDecimal.valueOf(n).setScale(places, RoundingMode.HALF_UP).toPlainString()) : nullValue();
    }

    /**
     * A value that is JSON already, written as it is: a whole document another writer made, placed
     * into this one (the caller vouches for it).
     */
    public JsonWriter rawValue(String json) throws IOException {
        return raw(json);
    }

    /** Hands what is buffered on; the underlying writer stays open, it belongs to the caller. */
    @Override
    public void flush() throws IOException {
        out.flush();
    }

    private JsonWriter open(char bracket) throws IOException {
        separate();
        out.write(bracket);
        afterValue = false;
        return this;
    }

    private JsonWriter close(char bracket) throws IOException {
        out.write(bracket);
        afterValue = true;
        return this;
    }

    private JsonWriter raw(String token) throws IOException {
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

    private static String decimal(long value, long unitsPerWhole) {
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
}
