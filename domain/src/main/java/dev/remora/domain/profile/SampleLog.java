package dev.remora.domain.profile;

import java.util.Arrays;

/** Every sample in order: when, which thread, which stack (a call-tree node), the thread's status. */
public final class SampleLog {

    private long[] time = new long[4096];
    private int[] node = new int[4096];
    private int[] status = new int[4096];
    private short[] opcode = new short[4096];
    private int size;

    void add(long timeNanos, int stackNode, int statusBits, int opcodeId) {
        if (size == time.length) {
            time = Arrays.copyOf(time, size * 2);
            node = Arrays.copyOf(node, size * 2);
            status = Arrays.copyOf(status, size * 2);
            opcode = Arrays.copyOf(opcode, size * 2);
        }
        time[size] = timeNanos;
        node[size] = stackNode;
        status[size] = statusBits;
        opcode[size] = (short) opcodeId;
        size++;
    }

    /** The innermost frame's instruction, as an index into the profile's opcode names, or -1. */
    public int opcode(int sample) {
        return opcode[sample];
    }

    public int size() {
        return size;
    }

    /** Nanoseconds since the profile started. */
    public long time(int sample) {
        return time[sample];
    }

    /** The stack, as a node of the profile's call tree (its thread follows from the node). */
    public int node(int sample) {
        return node[sample];
    }

    /** {@link dev.remora.domain.model.ThreadStatus} bits at the time of the sample. */
    public int status(int sample) {
        return status[sample];
    }
}
