package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

/** An ELF image read from the target's memory, as the kernel maps the vDSO: whole, from its first byte. */
record MemoryImage(RemoteMemory memory, long start, long size) implements ImageBytes {

    @Override
    public void read(long position, byte[] dst, int offset, int length) throws NativeDataException {
        try {
            memory.read(start + position, dst, offset, length);
        } catch (MemoryAccessException e) {
            throw new NativeDataException("cannot read the image in memory: " + e.getMessage());
        }
    }
}
