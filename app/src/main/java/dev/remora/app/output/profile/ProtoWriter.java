package dev.remora.app.output.profile;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Encodes one protocol buffers message: varint, fixed64 and length-delimited fields, which is all
 * pprof's profile.proto and OpenTelemetry's profiles use. Nested messages are encoded into their own
 * writer first, since their length precedes them on the wire.
 */
public final class ProtoWriter {

    private static final int VARINT = 0;
    private static final int FIXED64 = 1;
    private static final int LENGTH_DELIMITED = 2;

    private byte[] bytes = new byte[64];
    private int size;

    /**
     * An integer field (uint64, int64 or bool on the wire). Zero is the default every reader assumes,
     * so, as protobuf encoders do for proto3 scalars, it is left out.
     */
    public ProtoWriter integer(int field, long value) {
        if (value != 0) {
            tag(field, VARINT);
            varint(value);
        }
        return this;
    }

    /** A fixed64 field (OpenTelemetry's timestamps), left out when zero as {@link #integer} is. */
    public ProtoWriter fixed64(int field, long value) {
        if (value != 0) {
            tag(field, FIXED64);
            ensure(8);
            for (int i = 0; i < 8; i++) {
                bytes[size++] = (byte) (value >>> (8 * i));
            }
        }
        return this;
    }

    /** A bytes field. */
    public ProtoWriter bytes(int field, byte[] value) {
        tag(field, LENGTH_DELIMITED);
        varint(value.length);
        append(value, value.length);
        return this;
    }

    public ProtoWriter bool(int field, boolean value) {
        return integer(field, value ? 1 : 0);
    }

    /** A string field; written even when empty, since a repeated field's empty entries count. */
    public ProtoWriter string(int field, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        tag(field, LENGTH_DELIMITED);
        varint(utf8.length);
        append(utf8, utf8.length);
        return this;
    }

    public ProtoWriter message(int field, ProtoWriter message) {
        tag(field, LENGTH_DELIMITED);
        varint(message.size);
        append(message.bytes, message.size);
        return this;
    }

    /** A packed repeated integer field: one length-delimited run of varints. */
    public ProtoWriter packed(int field, long... values) {
        if (values.length == 0) {
            return this;
        }
        ProtoWriter run = new ProtoWriter();
        for (long v : values) {
            run.varint(v);
        }
        tag(field, LENGTH_DELIMITED);
        varint(run.size);
        append(run.bytes, run.size);
        return this;
    }

    public int size() {
        return size;
    }

    public byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    /**
     * Moves what is encoded so far to {@code out} and starts empty again. The fields of a top-level
     * message are not length-prefixed, so a large message can be written a field at a time.
     */
    public void drainTo(OutputStream out) throws IOException {
        out.write(bytes, 0, size);
        size = 0;
    }

    private void tag(int field, int wireType) {
        varint((long) field << 3 | wireType);
    }

    /** Seven bits a byte, low bits first; negative numbers take all ten bytes, as in protobuf. */
    private void varint(long value) {
        ensure(10);
        while ((value & ~0x7FL) != 0) {
            bytes[size++] = (byte) ((value & 0x7F) | 0x80);
            value >>>= 7;
        }
        bytes[size++] = (byte) value;
    }

    private void append(byte[] src, int length) {
        ensure(length);
        System.arraycopy(src, 0, bytes, size, length);
        size += length;
    }

    private void ensure(int extra) {
        if (size + extra > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, size + extra));
        }
    }
}
