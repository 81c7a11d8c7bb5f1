package dev.remora.domain.memory;

/** Little-endian field access on byte arrays copied from an x86-64 target. */
public final class Bytes {

    private Bytes() {}

    public static long getLong(byte[] b, int at) {
        return (b[at] & 0xFFL) | (b[at + 1] & 0xFFL) << 8 | (b[at + 2] & 0xFFL) << 16 | (b[at + 3] & 0xFFL) << 24
                | (b[at + 4] & 0xFFL) << 32 | (b[at + 5] & 0xFFL) << 40 | (b[at + 6] & 0xFFL) << 48
                | (b[at + 7] & 0xFFL) << 56;
    }

    public static int getInt(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | (b[at + 3] & 0xFF) << 24;
    }

    public static int getUnsignedShort(byte[] b, int at) {
        return (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8;
    }

    public static long getLong(byte[] b, long at) {
        return getLong(b, Math.toIntExact(at));
    }

    public static int getInt(byte[] b, long at) {
        return getInt(b, Math.toIntExact(at));
    }
}
