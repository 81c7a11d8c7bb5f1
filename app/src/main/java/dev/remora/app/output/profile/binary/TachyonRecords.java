package dev.remora.app.output.profile.binary;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * Encodes samples as the format's records, in the order they were taken: a sample whose stack is its
 * thread's previous one joins a pending REPEAT run while no other sample comes between, so that a
 * reader decodes the samples in exactly the order they were taken; any other stack is written as
 * the innermost frames to pop and push against the thread's previous stack (POP_PUSH), or whole
 * (FULL) when the two share no outermost frame.
 */
final class TachyonRecords {

    /** A thread's state as a reader keeps it: its last stack (innermost first) and time. */
    private static final class ThreadState {
        int[] stack = new int[0];
        long lastMicros;
    }

    private record ThreadKey(long threadId, long interpreterId) {}

    private final Map<ThreadKey, ThreadState> threads = new HashMap<>();
    private final long startMicros;
    private long samples;
    // The pending REPEAT run: its thread, and its samples' deltas and statuses.
    private ThreadKey runThread;
    private final ByteSink runBody = new ByteSink();
    private int runLength;

    TachyonRecords(long startMicros) {
        this.startMicros = startMicros;
    }

    long samples() {
        return samples;
    }

    int threads() {
        return threads.size();
    }

    /**
     * One sample: {@code stack[0..depth)} innermost first (cut to the innermost {@link
     * TachyonLayout#MAX_DEPTH} frames), taken {@code micros} after the capture's start.
     */
    void sample(long threadId, long interpreterId, int[] stack, int depth, long micros, int status, ByteSink out) {
        ThreadKey key = new ThreadKey(threadId, interpreterId);
        ThreadState state = threads.computeIfAbsent(key, k -> {
            ThreadState s = new ThreadState();
            s.lastMicros = startMicros;
            return s;
        });
        long at = Math.max(startMicros + micros, state.lastMicros);
        long delta = at - state.lastMicros;
        state.lastMicros = at;
        samples++;
        int kept = Math.min(depth, TachyonLayout.MAX_DEPTH);
        if (equal(state.stack, stack, kept)) {
            if (runThread != null && !runThread.equals(key)) {
                flush(out);
            }
            runThread = key;
            runBody.varint(delta).u8(status);
            runLength++;
            return;
        }
        flush(out);
        int[] previous = state.stack;
        int[] next = Arrays.copyOf(stack, kept);
        // Frames shared at the outermost end stay; the rest of the previous stack pops, the new ones push.
        int shared = 0;
        while (shared < previous.length && shared < next.length
                && previous[previous.length - 1 - shared] == next[next.length - 1 - shared]) {
            shared++;
        }
        int pop = previous.length - shared;
        int push = next.length - shared;
        out.u64(threadId).u32(interpreterId);
        if (shared == 0) {
            out.u8(TachyonLayout.FULL).varint(delta).u8(status).varint(next.length);
            for (int frame : next) {
                out.varint(frame);
            }
        } else {
            out.u8(TachyonLayout.POP_PUSH).varint(delta).u8(status).varint(pop).varint(push);
            for (int i = 0; i < push; i++) {
                out.varint(next[i]);
            }
        }
        state.stack = next;
    }

    /** Writes the pending REPEAT run, if any: at the end of every block, and before any other record. */
    void flush(ByteSink out) {
        if (runLength == 0) {
            return;
        }
        out.u64(runThread.threadId()).u32(runThread.interpreterId()).u8(TachyonLayout.REPEAT).varint(runLength)
                .bytes(runBody.toArray());
        runBody.clear();
        runLength = 0;
        runThread = null;
    }

    private static boolean equal(int[] previous, int[] stack, int kept) {
        if (previous.length != kept) {
            return false;
        }
        for (int i = 0; i < kept; i++) {
            if (previous[i] != stack[i]) {
                return false;
            }
        }
        return true;
    }
}
