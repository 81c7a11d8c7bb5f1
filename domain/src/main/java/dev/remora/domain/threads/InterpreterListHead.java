package dev.remora.domain.threads;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.ports.MemoryAccessException;

/**
 * The head of the runtime's interpreter list, which a walk starts from. While the process has one
 * interpreter, walks reuse its address and the head is read again after a walk, apart from its batch,
 * once a millisecond and {@value #TRUST_WALKS} walks have passed (a read of its own costs about three
 * ranges of a batch, so slow samplers read it every few walks rather than every walk). A lone
 * interpreter is the main one, which lives as long as the runtime, so reusing its address is safe; a
 * subinterpreter created meanwhile is seen that much later, as a thread started between two samples
 * would be. With more than one interpreter, any of which may go away, every walk reads the head.
 */
final class InterpreterListHead {

    static final long TRUST_NANOS = 1_000_000;
    static final int TRUST_WALKS = 4;

    private final long field;
    private final byte[] bytes = new byte[8];
    private long lone;
    private long readAt;
    private int walksSinceRead;

    /** @param field where the runtime keeps the list's head */
    InterpreterListHead(long field) {
        this.field = field;
    }

    /** The head to start a walk from. */
    long forWalk(SnapshotReader reader) throws MemoryAccessException {
        return lone != 0 ? lone : reader.readLong(field);
    }

    /**
     * After a walk from {@code head} met {@code interpreters} interpreters in the list, at {@code now}
     * (a {@link System#nanoTime()} reading): keeps or drops the lone interpreter's address.
     */
    void walked(SnapshotReader reader, long head, int interpreters, long now) {
        if (interpreters != 1) {
            lone = 0;
        } else if (lone == 0) {
            lone = head;
            readAt = now;
            walksSinceRead = 0;
        } else if (++walksSinceRead >= TRUST_WALKS && now - readAt >= TRUST_NANOS) {
            // Read on its own, after the walk: a range outside the batch would cost the walk its checks.
            try {
                reader.readApart(field, bytes, 0, 8);
                if (Bytes.getLong(bytes, 0) != lone) {
                    lone = 0;
                }
            } catch (MemoryAccessException e) {
                lone = 0;
            }
            readAt = now;
            walksSinceRead = 0;
        }
    }

    /** A walk failed: the next one reads the head, in case the interpreter it trusted is going away. */
    void forget() {
        lone = 0;
    }
}
