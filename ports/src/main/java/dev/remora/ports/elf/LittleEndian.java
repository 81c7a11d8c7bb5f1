package dev.remora.ports.elf;

/** Unsigned little-endian fields of a byte array; the callers bound every offset first. */
final class LittleEndian {

    private LittleEndian() {}

    static int u16(byte[] b, int at) {
        return (b[at] & 0xff) | (b[at + 1] & 0xff) << 8;
    }

    static long u32(byte[] b, int at) {
        return Integer.toUnsignedLong(u16(b, at) | u16(b, at + 2) << 16);
    }

    static long u64(byte[] b, int at) {
        return u32(b, at) | u32(b, at + 4) << 32;
    }
}
