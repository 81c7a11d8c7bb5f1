package dev.remora.domain.profile;

import dev.remora.domain.memory.LongIntMap;

import java.util.ArrayList;
import java.util.List;

/**
 * The samples in order: when, which thread, which stack (a call-tree node), the thread's status,
 * and how many samples each entry stands for. Entries start as one sample each; {@link #fold} turns
 * those taken so far into one entry per distinct stack, status and instruction, each keeping the
 * time it was first seen, so that a long run's log stays as large as what it saw is varied.
 * Entries live in chunks of a fixed size: growing never copies the log, and a heap too small for
 * the next chunk leaves the log whole and {@link #full}, rather than ending the run.
 */
public final class SampleLog {

    private static final int CHUNK_BITS = 14;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final int MASK = CHUNK - 1;

    /** One chunk's columns. */
    private static final class Chunk {
        final long[] time = new long[CHUNK];
        final int[] node = new int[CHUNK];
        final int[] status = new int[CHUNK];
        final short[] opcode = new short[CHUNK];
        final int[] weight = new int[CHUNK];
    }

    private final List<Chunk> chunks = new ArrayList<>();
    private int size;
    private long total;
    private long lastTime;
    private boolean full;
    /** Entries [0, folded) are distinct; {@link #keys} finds each by its stack, status and instruction. */
    private int folded;
    private LongIntMap keys;

    void add(long timeNanos, int stackNode, int statusBits, int opcodeId) {
        if (size == chunks.size() * CHUNK) {
            try {
                chunks.add(new Chunk());
            } catch (OutOfMemoryError e) {
                // The chunks so far are whole: the sample is lost, and the run is told to stop and write them.
                full = true;
                return;
            }
        }
        set(size, timeNanos, stackNode, statusBits, (short) opcodeId, 1);
        size++;
        total++;
        lastTime = Math.max(lastTime, timeNanos);
    }

    private void set(int i, long timeNanos, int stackNode, int statusBits, short opcodeId, int samples) {
        Chunk c = chunks.get(i >>> CHUNK_BITS);
        int at = i & MASK;
        c.time[at] = timeNanos;
        c.node[at] = stackNode;
        c.status[at] = statusBits;
        c.opcode[at] = opcodeId;
        c.weight[at] = samples;
    }

    /** Folds the entries added since the last fold into the distinct ones; later entries follow them. */
    void fold() {
        if (keys == null) {
            keys = new LongIntMap(1024);
        }
        int at = folded;
        for (int i = folded; i < size; i++) {
            int node = node(i);
            int status = status(i);
            short opcode = (short) opcode(i);
            // Status bits past the sixteen the key holds (none today) keep their entries apart.
            long key = status >>> 16 == 0 ? key(node, status, opcode) : -1;
            int same = key < 0 ? LongIntMap.ABSENT : keys.get(key);
            if (same != LongIntMap.ABSENT) {
                Chunk c = chunks.get(same >>> CHUNK_BITS);
                c.weight[same & MASK] += weight(i);
                continue;
            }
            set(at, time(i), node, status, opcode, weight(i));
            if (key >= 0) {
                keys.put(key, at);
            }
            at++;
        }
        size = at;
        folded = at;
        // The chunks past the last entry stay: the next window's samples fill them, allocating nothing.
    }

    /** Stack node, the status bits that matter (every {@link dev.remora.domain.model.ThreadStatus} fits 16) and instruction. */
    private static long key(int stackNode, int statusBits, short opcodeId) {
        return (long) stackNode << 32 | (long) (statusBits & 0xffff) << 16 | (opcodeId & 0xffff);
    }

    /** Whether the heap could not hold another chunk: samples since then were lost, and the run should end. */
    public boolean full() {
        return full;
    }

    /** The innermost frame's instruction, as an index into the profile's opcode names, or -1. */
    public int opcode(int sample) {
        return chunks.get(sample >>> CHUNK_BITS).opcode[sample & MASK];
    }

    /** Entries: each sample until a fold, then each distinct one. */
    public int size() {
        return size;
    }

    /** Samples the entries stand for together. */
    public long total() {
        return total;
    }

    /** Samples entry {@code sample} stands for: 1 until a fold. */
    public int weight(int sample) {
        return chunks.get(sample >>> CHUNK_BITS).weight[sample & MASK];
    }

    /** Nanoseconds since the profile started: after a fold, when the entry's first sample was taken. */
    public long time(int sample) {
        return chunks.get(sample >>> CHUNK_BITS).time[sample & MASK];
    }

    /** When the last sample was taken, in nanoseconds since the profile started. */
    public long lastTime() {
        return lastTime;
    }

    /** The stack, as a node of the profile's call tree (its thread follows from the node). */
    public int node(int sample) {
        return chunks.get(sample >>> CHUNK_BITS).node[sample & MASK];
    }

    /** {@link dev.remora.domain.model.ThreadStatus} bits at the time of the sample. */
    public int status(int sample) {
        return chunks.get(sample >>> CHUNK_BITS).status[sample & MASK];
    }
}
