package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.RemoteMemory;

import java.util.Optional;

/**
 * A thread's stack from its stack pointer up, copied in one read, serving the walk's reads of saved
 * registers and return addresses; reads outside it go to the target. One read instead of one per
 * frame keeps the time a stopped target waits short, and the same whatever its stack: a profiler
 * that holds a thread longer where its C stack is deeper would make the target's own clock count
 * that code as slower than it is.
 */
final class CopiedStack implements RemoteMemory {

    /** Covers the C stack of all but deep C recursion; the rest is read frame by frame. */
    static final int COPY_BYTES = 64 << 10;

    private final RemoteMemory target;
    private final long start;
    private final byte[] bytes;

    private CopiedStack(RemoteMemory target, long start, byte[] bytes) {
        this.target = target;
        this.start = start;
        this.bytes = bytes;
    }

    /** The stack above {@code sp}, up to the end of its mapping; the target itself when it cannot be copied. */
    static RemoteMemory of(RemoteMemory target, NativeModules modules, long sp) {
        Optional<MemoryMapping> mapping = modules.mappingAt(sp);
        if (mapping.isEmpty()) {
            return target;
        }
        long length = Math.min(COPY_BYTES, mapping.get().end() - sp);
        if (length <= 0) {
            return target;
        }
        byte[] copy = new byte[(int) length];
        try {
            target.read(sp, copy, 0, copy.length);
        } catch (MemoryAccessException e) {
            return target;
        }
        return new CopiedStack(target, sp, copy);
    }

    @Override
    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        long from = address - start;
        // Unsigned first: an address far above the copy makes a difference that is negative as a long.
        if (Long.compareUnsigned(address, start) >= 0 && from >= 0 && length >= 0 && from <= bytes.length - (long) length) {
            System.arraycopy(bytes, (int) from, dst, offset, length);
            return;
        }
        target.read(address, dst, offset, length);
    }

    @Override
    public boolean changes() {
        return target.changes();
    }

    @Override
    public String backendName() {
        return target.backendName();
    }
}
