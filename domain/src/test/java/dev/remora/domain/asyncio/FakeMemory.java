package dev.remora.domain.asyncio;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.nio.charset.StandardCharsets;

/**
 * A small target address space written by a test: one zero-filled arena at {@link #BASE}, with
 * objects placed in it by {@link #alloc}. Reads outside the arena are unmapped.
 */
final class FakeMemory implements RemoteMemory {

    static final long BASE = 0x7f00_0000_0000L;
    private static final int SIZE = 1 << 20;

    private final byte[] arena = new byte[SIZE];
    private long next = BASE + 0x1000;

    /** A fresh zeroed block, 16-byte aligned. */
    long alloc(long size) {
        long at = next;
        next += (size + 15) & ~15L;
        if (next > BASE + SIZE) {
            throw new IllegalStateException("arena full");
        }
        return at;
    }

    /** Where the allocated part of the arena ends. */
    long end() {
        return next;
    }

    FakeMemory putLong(long address, long value) {
        for (int i = 0; i < 8; i++) {
            arena[index(address + i)] = (byte) (value >>> (8 * i));
        }
        return this;
    }

    FakeMemory putInt(long address, int value) {
        for (int i = 0; i < 4; i++) {
            arena[index(address + i)] = (byte) (value >>> (8 * i));
        }
        return this;
    }

    FakeMemory putByte(long address, int value) {
        arena[index(address)] = (byte) value;
        return this;
    }

    /** A NUL-terminated C string; returns its address. */
    long cString(String s) {
        byte[] bytes = s.getBytes(StandardCharsets.US_ASCII);
        long at = alloc(bytes.length + 1);
        for (int i = 0; i < bytes.length; i++) {
            putByte(at + i, bytes[i]);
        }
        return at;
    }

    @Override
    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        if (address < BASE || address + length > BASE + SIZE || length < 0) {
            throw new MemoryAccessException.Unmapped(address);
        }
        System.arraycopy(arena, (int) (address - BASE), dst, offset, length);
    }

    @Override
    public String backendName() {
        return "fake";
    }

    private static int index(long address) {
        if (address < BASE || address >= BASE + SIZE) {
            throw new IllegalArgumentException("outside the arena: 0x%x".formatted(address));
        }
        return (int) (address - BASE);
    }
}
