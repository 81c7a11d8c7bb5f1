package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.Utf8;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Python's marshal format (version 4, as {@code marshal.dump} writes it) for the few types a pstats
 * file holds. Containers are written as a header followed by their items; nothing is shared, so no
 * object carries the reference flag and a reader needs no reference table.
 */
final class MarshalWriter {

    private static final int TYPE_NULL = '0';
    private static final int TYPE_TRUE = 'T';
    private static final int TYPE_FALSE = 'F';
    private static final int TYPE_INT = 'i';
    private static final int TYPE_LONG = 'l';
    private static final int TYPE_BINARY_FLOAT = 'g';
    private static final int TYPE_UNICODE = 'u';
    private static final int TYPE_ASCII = 'a';
    private static final int TYPE_SHORT_ASCII = 'z';
    private static final int TYPE_TUPLE = '(';
    private static final int TYPE_SMALL_TUPLE = ')';
    private static final int TYPE_DICT = '{';

    /** Python ints go out in base 2**15, whatever the reader's own digit size. */
    private static final int LONG_SHIFT = 15;

    private final OutputStream out;

    MarshalWriter(OutputStream out) {
        this.out = out;
    }

    /** Starts a dict: write key, value, key, value... then {@link #endDict()}. */
    void beginDict() throws IOException {
        out.write(TYPE_DICT);
    }

    void endDict() throws IOException {
        out.write(TYPE_NULL);
    }

    /** Starts a tuple of {@code size} items; write the items next. */
    void beginTuple(int size) throws IOException {
        if (size < 256) {
            out.write(TYPE_SMALL_TUPLE);
            out.write(size);
        } else {
            out.write(TYPE_TUPLE);
            int32(size);
        }
    }

    void bool(boolean value) throws IOException {
        out.write(value ? TYPE_TRUE : TYPE_FALSE);
    }

    void integer(long value) throws IOException {
        if (value == (int) value) {
            out.write(TYPE_INT);
            int32((int) value);
            return;
        }
        // Magnitude as an unsigned number, so that Long.MIN_VALUE needs no special case.
        long magnitude = value < 0 ? -value : value;
        int digits = (64 - Long.numberOfLeadingZeros(magnitude) + LONG_SHIFT - 1) / LONG_SHIFT;
        out.write(TYPE_LONG);
        int32(value < 0 ? -digits : digits);
        for (int i = 0; i < digits; i++) {
            int digit = (int) (magnitude >>> (i * LONG_SHIFT)) & ((1 << LONG_SHIFT) - 1);
            out.write(digit & 0xff);
            out.write(digit >>> 8);
        }
    }

    void floating(double value) throws IOException {
        out.write(TYPE_BINARY_FLOAT);
        long bits = Double.doubleToRawLongBits(value);
        for (int i = 0; i < 8; i++) {
            out.write((int) (bits >>> (8 * i)) & 0xff);
        }
    }

    void string(String value) throws IOException {
        if (Utf8.isAscii(value)) {
            if (value.length() < 256) {
                out.write(TYPE_SHORT_ASCII);
                out.write(value.length());
            } else {
                out.write(TYPE_ASCII);
                int32(value.length());
            }
            for (int i = 0; i < value.length(); i++) {
                out.write(value.charAt(i));
            }
            return;
        }
        byte[] utf8 = Utf8.encode(value);
        out.write(TYPE_UNICODE);
        int32(utf8.length);
        out.write(utf8);
    }

    private void int32(int value) throws IOException {
        out.write(value & 0xff);
        out.write(value >>> 8 & 0xff);
        out.write(value >>> 16 & 0xff);
        out.write(value >>> 24 & 0xff);
    }
}
