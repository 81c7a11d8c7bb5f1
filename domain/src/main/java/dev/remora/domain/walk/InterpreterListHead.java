package dev.remora.domain.walk;

import dev.remora.domain.memory.SnapshotReader;
import dev.remora.ports.MemoryAccessException;

/**
 * The head of the runtime's interpreter list, which a walk starts from. While the process has one
 * interpreter it is read at most once a millisecond: a lone interpreter is the main one, which lives
 * as long as the runtime, so reusing its address is safe, and a subinterpreter created meanwhile is
 * only seen up to a millisecond late, as a thread started between two samples would be. With more
 * than one interpreter, any of which may go away, the head is read on every walk.
 */
final class InterpreterListHead {

    static final long TRUST_NANOS = 1_000_000;

    private final long field;
    private long lone;
    private long readAt;
    private boolean readThisWalk;

    /** @param field where the runtime keeps the list's head */
    InterpreterListHead(long field) {
        this.field = field;
    }

    /** The head for a walk starting at {@code now} (a {@link System#nanoTime()} reading). */
    long forWalk(SnapshotReader reader, long now) throws MemoryAccessException {
        readThisWalk = lone == 0 || now - readAt >= TRUST_NANOS;
        if (!readThisWalk) {
            return lone;
        }
        readAt = now;
        return reader.readLong(field);
    }

    /** After a walk from {@code head} met {@code interpreters} interpreters in the list. */
    void walked(long head, int interpreters) {
        if (interpreters != 1) {
            lone = 0;
        } else if (readThisWalk) {
            lone = head;
        }
    }
}
