package dev.remora.domain.asyncio;

import dev.remora.ports.testing.ScriptedMemory;

import java.nio.charset.StandardCharsets;

/**
 * A small target address space written by a test: one zero-filled arena at {@link #BASE}, with
 * objects placed in it by {@link #alloc}. Reads outside the arena are unmapped.
 */
final class FakeMemory {

    static final long BASE = 0x7f00_0000_0000L;
    private static final int SIZE = 1 << 20;

    /** The target's memory: the arena, zero-filled, and nothing else. */
    final ScriptedMemory target = ScriptedMemory.live().map(BASE, SIZE);
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
        target.putLong(inArena(address, 8), value);
        return this;
    }

    FakeMemory putInt(long address, int value) {
        target.putInt(inArena(address, 4), value);
        return this;
    }

    FakeMemory putByte(long address, int value) {
        target.putByte(inArena(address, 1), value);
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

    private static long inArena(long address, int bytes) {
        if (address < BASE || address + bytes > BASE + SIZE) {
            throw new IllegalArgumentException("outside the arena: 0x%x".formatted(address));
        }
        return address;
    }
}
