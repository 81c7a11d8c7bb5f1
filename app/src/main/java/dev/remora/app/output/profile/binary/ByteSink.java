package dev.remora.app.output.profile.binary;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** A growing little-endian byte buffer with the format's LEB128 varints. */
final class ByteSink {

    private byte[] bytes = new byte[4096];
    private int size;

    int size() {
        return size;
    }

    void clear() {
        size = 0;
    }

    byte[] toArray() {
        return Arrays.copyOf(bytes, size);
    }

    ByteSink u8(int v) {
        ensure(1);
        bytes[size++] = (byte) v;
        return this;
    }

    ByteSink u32(long v) {
        ensure(4);
        for (int i = 0; i < 4; i++) {
            bytes[size++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    ByteSink u64(long v) {
        ensure(8);
        for (int i = 0; i < 8; i++) {
            bytes[size++] = (byte) (v >>> (8 * i));
        }
        return this;
    }

    ByteSink f64(double v) {
        return u64(Double.doubleToRawLongBits(v));
    }

    /** An unsigned LEB128 varint: 7 bits a byte, low group first. */
    ByteSink varint(long v) {
        ensure(10);
        while ((v & ~0x7fL) != 0) {
            bytes[size++] = (byte) ((v & 0x7f) | 0x80);
            v >>>= 7;
        }
        bytes[size++] = (byte) v;
        return this;
    }

    /** A signed 32-bit value, zigzag-encoded. */
    ByteSink zigzag(int v) {
        return varint(Integer.toUnsignedLong((v << 1) ^ (v >> 31)));
    }

    ByteSink bytes(byte[] data) {
        ensure(data.length);
        System.arraycopy(data, 0, bytes, size, data.length);
        size += data.length;
        return this;
    }

    /** A length-prefixed UTF-8 string, as the string table holds them. */
    ByteSink string(String s) {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        return varint(utf8.length).bytes(utf8);
    }

    private void ensure(int more) {
        if (size + more > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + more));
        }
    }
}
