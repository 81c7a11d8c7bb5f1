package dev.remora.domain.threads;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

/**
 * The fields a walk uses of one interpreter state, read together: they sit near the end of a struct
 * of hundreds of KiB, so only the window from the first of them to the last is read. Reused from one
 * interpreter to the next; its values are those of the last {@link #read}.
 */
public final class InterpreterWindow {

    private final DebugOffsets offsets;
    private final DebugOffsets.Interpreter fields;
    private final long start;
    private final byte[] bytes;
    private final byte[] runtimeGilLocked = new byte[4];
    private long address;

    public InterpreterWindow(DebugOffsets offsets) {
        this.offsets = offsets;
        this.fields = offsets.interpreter();
        this.start = firstField(fields);
        this.bytes = new byte[fields.readLength() - (int) start];
    }

    /** Reads the interpreter at {@code address} as part of the snapshot's batch. */
    public void read(SnapshotReader reader, long address) throws MemoryAccessException {
        this.address = address;
        reader.read(address + start, bytes, 0, bytes.length);
    }

    /** Reads it again now, apart from the batch: its thread list is being read afresh. */
    void readApart(SnapshotReader reader, long address) throws MemoryAccessException {
        this.address = address;
        reader.readApart(address + start, bytes, 0, bytes.length);
    }

    /** The interpreter state's address. */
    public long address() {
        return address;
    }

    public long id() {
        return field(fields.id());
    }

    /** The next interpreter in the runtime's list, or 0. */
    long next() {
        return field(fields.next());
    }

    /** The newest thread state. */
    long threadsHead() {
        return field(fields.threadsHead());
    }

    /**
     * The main thread's state: named from 3.14; before that the oldest thread state, the last of
     * {@code threads}.
     */
    long mainThread(ThreadList threads) {
        if (fields.threadsMain().isPresent()) {
            return field(fields.threadsMain().getAsLong());
        }
        return threads.count() == 0 ? 0 : threads.address(threads.count() - 1);
    }

    /** The frame that started a running garbage collection (3.15+), or 0. */
    public long gcFrame() {
        return fields.gcFrame().isPresent() ? field(fields.gcFrame().getAsLong()) : 0;
    }

    /** Whether the interpreter counts changes to its code objects (see {@link #codeObjectGeneration}). */
    public boolean countsCodeObjectChanges() {
        return fields.codeObjectGeneration().isPresent();
    }

    /** The count of changes to the interpreter's code objects, where {@link #countsCodeObjectChanges} says it keeps one. */
    public long codeObjectGeneration() {
        return field(fields.codeObjectGeneration().orElseThrow());
    }

    /**
     * The thread state holding the GIL, or 0 while it is free: the interpreter's own GIL from 3.12,
     * before that the runtime's one GIL at {@code runtime}. {@code last_holder} keeps its value after
     * a release, so it counts only while the GIL is locked.
     */
    long gilHolder(SnapshotReader reader, long runtime) throws MemoryAccessException {
        if (fields.gilLocked().isPresent()) {
            return Bytes.getInt(bytes, fields.gilLocked().getAsLong() - start) != 0
                    ? field(fields.gilHolder().getAsLong()) : 0;
        }
        DebugOffsets.Runtime ro = offsets.runtime();
        if (ro.gilLocked().isEmpty()) {
            return 0;
        }
        reader.read(runtime + ro.gilLocked().getAsLong(), runtimeGilLocked, 0, 4);
        return Bytes.getInt(runtimeGilLocked, 0) != 0 ? reader.readLong(runtime + ro.gilHolder().getAsLong()) : 0;
    }

    private long field(long offset) {
        return Bytes.getLong(bytes, offset - start);
    }

    private static long firstField(DebugOffsets.Interpreter io) {
        long first = Math.min(Math.min(io.id(), io.next()), io.threadsHead());
        first = Math.min(first, io.gilLocked().orElse(first));
        first = Math.min(first, io.gilHolder().orElse(first));
        first = Math.min(first, io.threadsMain().orElse(first));
        first = Math.min(first, io.codeObjectGeneration().orElse(first));
        return Math.min(first, io.gcFrame().orElse(first));
    }
}
