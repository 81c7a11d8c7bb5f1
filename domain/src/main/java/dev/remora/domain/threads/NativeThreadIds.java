package dev.remora.domain.threads;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

/**
 * The kernel's id of each thread: kept in its thread state from 3.11 on. 3.10 keeps only the
 * {@code pthread_t}, the address of glibc's {@code struct pthread}, whose {@code tid} field sits at an
 * offset that depends on the glibc build: it is learned once, as the place in the main thread's struct
 * that holds the process id (the main thread's id). Inside a pid namespace the struct holds the
 * namespace's ids: the offset is then not learned and the ids are unknown.
 */
final class NativeThreadIds {

    /** How far into {@code struct pthread} its {@code tid} is looked for (0x2d0 in glibc 2.31-2.41). */
    private static final int SEARCH_BYTES = 0x1000;

    private final DebugOffsets.Thread thread;
    private final int pid;
    private final byte[] tid = new byte[4];
    private int tidOffset = -1;
    /** The main thread's {@code struct pthread} last searched for the tid. */
    private long searched;

    NativeThreadIds(DebugOffsets.Thread thread, int pid) {
        this.thread = thread;
        this.pid = pid;
    }

    /** Returned when a 3.10 thread's kernel id cannot be told (a pid namespace hides it, say). */
    static final long UNKNOWN = -1;

    /** The thread's kernel id: 0 when it has none yet; {@link #UNKNOWN} when 3.10's cannot be told. */
    long of(byte[] state, SnapshotReader reader) throws MemoryAccessException {
        if (thread.nativeThreadId().isPresent()) {
            return Bytes.getLong(state, thread.nativeThreadId().getAsLong());
        }
        long pthread = Bytes.getLong(state, thread.threadId());
        if (pthread == 0) {
            return 0;
        }
        if (tidOffset < 0) {
            return UNKNOWN;
        }
        try {
            reader.read(pthread + tidOffset, tid, 0, 4);
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            return UNKNOWN;
        }
        return Integer.toUnsignedLong(Bytes.getInt(tid, 0));
    }

    /** Whether ids still wait for {@link #learnFrom}: only 3.10's, and only until the offset is known. */
    boolean learning() {
        return thread.nativeThreadId().isEmpty() && tidOffset < 0;
    }

    /**
     * Learns where {@code struct pthread} keeps the tid from the main thread's state, if not known yet.
     * Whether the thread is the main one is the caller's to know: the oldest thread state of the main
     * interpreter.
     */
    void learnFrom(byte[] mainState, SnapshotReader reader) throws MemoryAccessException {
        if (!learning()) {
            return;
        }
        long pthread = Bytes.getLong(mainState, thread.threadId());
        // Searched once per main thread: a struct without the pid (a pid namespace) stays without it.
        if (pthread == 0 || pthread == searched) {
            return;
        }
        searched = pthread;
        // The struct may end near the end of its mapping: read less when the whole window is not there.
        for (int length = SEARCH_BYTES; length >= 0x400; length /= 2) {
            byte[] struct = new byte[length];
            try {
                reader.readApart(pthread, struct, 0, length);
            } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
                continue;
            }
            for (int at = 0; at + 4 <= length; at += 4) {
                if (Bytes.getInt(struct, at) == pid) {
                    tidOffset = at;
                    return;
                }
            }
            return;
        }
    }
}
