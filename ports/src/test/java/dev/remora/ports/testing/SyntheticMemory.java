package dev.remora.ports.testing;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.util.function.LongUnaryOperator;

/** Memory whose every aligned 8-byte word is a function of its address: garbage of a chosen shape. */
public record SyntheticMemory(LongUnaryOperator wordAt) implements RemoteMemory {

    /** Deterministic noise: every pointer, size and count is garbage. */
    public static SyntheticMemory noise(long seed) {
        return new SyntheticMemory(address -> Noise.mix(address ^ seed));
    }

    /** Every word holds the same value, so every list and chain points back into itself. */
    public static SyntheticMemory constant(long value) {
        return new SyntheticMemory(address -> value);
    }

    @Override
    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        for (int i = 0; i < length; i++) {
            long at = address + i;
            long word = wordAt.applyAsLong(at & ~7L);
            dst[offset + i] = (byte) (word >>> (8 * (int) (at & 7)));
        }
    }

    @Override
    public String backendName() {
        return "synthetic";
    }
}
