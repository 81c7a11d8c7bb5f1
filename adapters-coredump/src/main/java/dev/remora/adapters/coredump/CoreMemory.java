package dev.remora.adapters.coredump;

import dev.remora.ports.elf.ElfProgramHeader;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.util.Objects;

/**
 * The target's memory as a core recorded it. A byte is read from the core when its segment holds it
 * (the first {@code p_filesz} bytes), else from the mapped file NT_FILE names for it; bytes that are in
 * neither are {@link MemoryAccessException.Unavailable}, addresses in no segment and no mapping
 * {@link MemoryAccessException.Unmapped}. Thread-safe: nothing changes after construction.
 */
final class CoreMemory implements RemoteMemory {

    private final CoreBytes core;
    private final AddressSpace space;
    private final MappedFiles files;
    private final Runnable onClose;

    CoreMemory(CoreBytes core, AddressSpace space, MappedFiles files, Runnable onClose) {
        this.core = core;
        this.space = space;
        this.files = files;
        this.onClose = onClose;
    }

    @Override
    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        Objects.checkFromIndexSize(offset, length, dst.length);
        int done = 0;
        while (done < length) {
            // Regions end below 2^64, so a read running past the last one fails here instead of wrapping.
            long at = address + done;
            Region r = space.find(at);
            if (r == null) {
                throw new MemoryAccessException.Unmapped(at);
            }
            int n = atMost(r.end() - at, length - done);
            readIn(r, at, dst, offset + done, n);
            done += n;
        }
    }

    /** Reads {@code length} bytes at {@code address}, all inside region {@code r}. */
    private void readIn(Region r, long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        int fromCore = 0;
        ElfProgramHeader load = r.load();
        if (load != null) {
            long inSegment = address - load.address();
            // fileSize <= memorySize and the segment lies inside the core, both checked when it was read.
            if (Long.compareUnsigned(inSegment, load.fileSize()) < 0) {
                fromCore = atMost(load.fileSize() - inSegment, length);
                core.copy(load.offset() + inSegment, dst, offset, fromCore);
            }
        }
        if (fromCore == length) {
            return;
        }
        long rest = address + fromCore;
        if (r.file() == null) {
            throw new MemoryAccessException.Unavailable(rest,
                    "0x%x is not in the core: the dump left this memory out".formatted(rest));
        }
        files.read(r.file(), rest, dst, offset + fromCore, length - fromCore);
    }

    /** The smaller of an unsigned distance and a non-negative int. */
    private static int atMost(long unsignedDistance, int limit) {
        return Long.compareUnsigned(unsignedDistance, limit) < 0 ? (int) unsignedDistance : limit;
    }

    @Override
    public boolean changes() {
        return false;
    }

    @Override
    public String backendName() {
        return "core";
    }

    /** Unmaps the core and closes the mapped files; reads after this fail. */
    @Override
    public void close() {
        onClose.run();
    }
}
