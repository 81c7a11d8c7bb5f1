package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryAccessException;

/** What a DWARF expression may read: the frame's registers and the target's memory. */
interface FrameState {

    /** Register {@code dwarf}'s value in the frame being unwound; fails when the walk does not know it. */
    long register(int dwarf) throws NativeDataException;

    /** {@code size} (1 to 8) bytes at {@code address}, little-endian, zero-extended. */
    long load(long address, int size) throws MemoryAccessException;
}
