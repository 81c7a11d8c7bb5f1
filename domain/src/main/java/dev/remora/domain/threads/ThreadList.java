package dev.remora.domain.threads;

import dev.remora.domain.InspectionException;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.UnstartedThreads;
import dev.remora.ports.MemoryAccessException;

import java.util.Arrays;

/**
 * One interpreter's thread states, newest first, each with the bytes of it that were read. Threads
 * start and exit while the list is read: a list whose links do not hold together (a state not of this
 * interpreter, a {@code prev} that does not lead back, memory freed meanwhile), or that is only a
 * thread state being made in the memory of a head freed meanwhile, is read again apart from the
 * batch, a few times, before the read fails. Reused from one interpreter to the next.
 */
final class ThreadList {

    static final int MAX_THREADS = 1 << 16;
    /** Readings of a thread list that keeps changing under them before the walk fails. */
    static final int ATTEMPTS = 16;

    private final SnapshotReader reader;
    private final DebugOffsets offsets;
    private final int pid;
    private final int stateLength;
    private final ChainGuard guard = new ChainGuard(MAX_THREADS, 0);
    private long[] addresses = new long[64];
    private byte[][] states = new byte[64][];
    private int count;

    ThreadList(SnapshotReader reader, DebugOffsets offsets, int pid) {
        this.reader = reader;
        this.offsets = offsets;
        this.pid = pid;
        this.stateLength = offsets.thread().readLength();
    }

    int count() {
        return count;
    }

    long address(int i) {
        return addresses[i];
    }

    /** The thread state's bytes as the list was read: {@code thread().readLength()} of them. */
    byte[] state(int i) {
        return states[i];
    }

    /**
     * Reads the threads of the interpreter whose fields {@code window} holds; a fresh reading reads
     * the window again too.
     *
     * @throws InspectionException.Unreadable when the list kept changing over every attempt
     * @throws InspectionException.CorruptTarget when a list read apart from the batch loops
     */
    void read(InterpreterWindow window) throws MemoryAccessException, InspectionException {
        long interpreter = window.address();
        long head = window.threadsHead();
        Reading reading = Reading.BATCHED;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try {
                if (reading == Reading.FRESH) {
                    window.readApart(reader, interpreter);
                    head = window.threadsHead();
                }
                // A thread being added or removed leaves the links half changed for a moment: read again.
                Links links = readOnce(interpreter, head, reading);
                if (links == Links.HOLD || !reader.memory().changes()) {
                    // A core's list can be caught mid-update: the threads that held together are its threads.
                    return;
                }
                if (links == Links.ONLY_A_STATE_BEING_MADE && attempt == ATTEMPTS - 1) {
                    return; // it stayed so: an interpreter whose first thread state is being made
                }
            } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
                if (!reader.memory().changes()) {
                    return; // a core that left a thread state out: the threads before it are its threads
                }
                // A thread state freed while the list was read.
            }
            reading = Reading.FRESH;
        }
        throw new InspectionException.Unreadable("the thread list of process %d kept changing while it was read"
                .formatted(pid));
    }

    /** How a reading of the list gets its bytes. */
    private enum Reading {
        /** Among the snapshot batch's thread states (see {@link SnapshotReader#readState}). */
        BATCHED,
        /** Now, apart from the batch, and among the next batches' thread states. */
        FRESH
    }

    /** What one reading of the list found. */
    private enum Links {
        HOLD,
        /** A link that does not lead where it should: the list changed while it was read. */
        BROKEN,
        /**
         * The links hold, but the list is one thread state that has run nothing and has no links: the
         * memory of the head read from the interpreter was freed and taken by a thread state that
         * CPython is making, read before it is linked in at the head. The list is elsewhere.
         */
        ONLY_A_STATE_BEING_MADE
    }

    /** One reading of the thread list. */
    private Links readOnce(long interpreter, long head, Reading reading) throws MemoryAccessException, InspectionException {
        DebugOffsets.Thread to = offsets.thread();
        count = 0;
        ChainGuard guard = this.guard.restart(MAX_THREADS, head);
        long previous = 0;
        for (long t = head; t != 0; ) {
            byte[] state = slot();
            if (reading == Reading.FRESH) {
                reader.readApart(t, state, 0, state.length);
                reader.planState(t, state.length);
            } else {
                reader.readState(t, state, 0, state.length);
            }
            if (Bytes.getLong(state, to.interp()) != interpreter) {
                return Links.BROKEN; // not of this interpreter
            }
            long next = Bytes.getLong(state, to.next());
            if (next != 0 && !guard.step(next)) {
                if (reading == Reading.BATCHED) {
                    return Links.BROKEN; // perhaps a loop only in bytes from before a change: read it again
                }
                throw corrupt("thread", pid, guard);
            }
            if (Bytes.getLong(state, to.prev()) != previous) {
                return Links.BROKEN; // its prev does not lead back
            }
            addresses[count++] = t;
            previous = t;
            t = next;
        }
        return count == 1 && ranNothing(states[0]) ? Links.ONLY_A_STATE_BEING_MADE : Links.HOLD;
    }

    private byte[] slot() {
        if (count == addresses.length) {
            addresses = Arrays.copyOf(addresses, count * 2);
            states = Arrays.copyOf(states, count * 2);
        }
        if (states[count] == null) {
            states[count] = new byte[stateLength];
        }
        return states[count];
    }

    /**
     * Whether thread state {@code i} belongs to a thread not started yet: one with no native id, or
     * (3.11) one with its creator's id and no data stack, newer than its creator.
     */
    boolean notStarted(int i, long nativeId) {
        DebugOffsets.Thread to = offsets.thread();
        if (nativeId == 0) {
            return true;
        }
        if (offsets.layout().unstartedThreads() != UnstartedThreads.CREATOR_IDS || !ranNothing(states[i])) {
            return false;
        }
        long threadId = Bytes.getLong(states[i], to.threadId());
        for (int older = i + 1; older < count; older++) {
            if (Bytes.getLong(states[older], to.threadId()) == threadId) {
                return true;
            }
        }
        return false;
    }

    /** Nothing run yet: no data stack (3.11+), no frame (3.10, whose frames are heap objects). */
    private boolean ranNothing(byte[] state) {
        DebugOffsets.Thread to = offsets.thread();
        return to.datastackChunk().isPresent()
                ? Bytes.getLong(state, to.datastackChunk().getAsLong()) == 0
                : Bytes.getLong(state, to.currentFrame()) == 0;
    }

    /** The failure of a list of the target's ({@code what}: "thread", "interpreter") that loops or never ends. */
    static InspectionException corrupt(String what, int pid, ChainGuard guard) {
        return new InspectionException.CorruptTarget("the %s list of process %d %s".formatted(what, pid,
                guard.tooLong() ? "is longer than any real one: memory is inconsistent" : "loops"));
    }
}
