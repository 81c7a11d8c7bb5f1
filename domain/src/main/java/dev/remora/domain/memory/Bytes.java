package dev.remora.domain.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Little-endian field access on byte arrays copied from an x86-64 target. */
public final class Bytes {

    // View handles compile to single loads: every field of every frame goes through here.
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    private Bytes() {}

    public static long getLong(byte[] b, int at) {
        return (long) LONG.get(b, at);
    }

    public static int getInt(byte[] b, int at) {
        return (int) INT.get(b, at);
    }

    public static int getUnsignedShort(byte[] b, int at) {
        return Short.toUnsignedInt((short) SHORT.get(b, at));
    }

    public static void putLong(byte[] b, int at, long value) {
        LONG.set(b, at, value);
    }

    public static long getLong(byte[] b, long at) {
        return getLong(b, Math.toIntExact(at));
    }

    public static int getInt(byte[] b, long at) {
        return getInt(b, Math.toIntExact(at));
    }
}
