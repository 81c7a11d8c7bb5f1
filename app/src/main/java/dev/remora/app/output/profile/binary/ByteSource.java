package dev.remora.app.output.profile.binary;

import java.nio.charset.StandardCharsets;

/** Reads a region of a capture, checking every read against the region's end. */
final class ByteSource {

    private final byte[] bytes;
    private final int end;
    private int at;
    private final String region;

    ByteSource(byte[] bytes, int from, int end, String region) {
        this.bytes = bytes;
        this.at = from;
        this.end = end;
        this.region = region;
    }

    boolean hasMore() {
        return at < end;
    }

    int u8(String what) throws TachyonFormatException {
        need(1, what);
        return bytes[at++] & 0xff;
    }

    long u32(String what) throws TachyonFormatException {
        return little(4, what);
    }

    long u64(String what) throws TachyonFormatException {
        return little(8, what);
    }

    private long little(int size, String what) throws TachyonFormatException {
        need(size, what);
        long v = 0;
        for (int i = 0; i < size; i++) {
            v |= (long) (bytes[at++] & 0xff) << (8 * i);
        }
        return v;
    }

    long varint(String what) throws TachyonFormatException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            int b = u8(what);
            v |= (long) (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new TachyonFormatException("malformed varint in the %s (%s) at byte %d".formatted(region, what, at));
    }

    /** A varint that must fit an int and be at most {@code max}. */
    int count(String what, long max) throws TachyonFormatException {
        long v = varint(what);
        if (v < 0 || v > max) {
            throw new TachyonFormatException("%s %d in the %s is out of range (at most %d)".formatted(what, v, region, max));
        }
        return (int) v;
    }

    int zigzag(String what) throws TachyonFormatException {
        long u = varint(what);
        return (int) ((u >>> 1) ^ -(u & 1));
    }

    String string(String what) throws TachyonFormatException {
        long declared = varint(what + " length");
        if (declared < 0 || declared > end - at) {
            throw new TachyonFormatException("%s length %d in the %s runs past its end".formatted(what, declared, region));
        }
        int length = (int) declared;
        String s = new String(bytes, at, length, StandardCharsets.UTF_8);
        at += length;
        return s;
    }

    private void need(int n, String what) throws TachyonFormatException {
        if (at + n > end) {
            throw new TachyonFormatException("the %s ends inside its %s (byte %d)".formatted(region, what, at));
        }
    }
}
