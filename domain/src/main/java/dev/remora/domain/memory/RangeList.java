package dev.remora.domain.memory;

import java.util.Arrays;

/**
 * Ranges of the target to read together: each an address, a length and where its bytes go in a
 * buffer, kept as the parallel arrays a batched read takes. Grows by doubling and is reused, so a
 * steady reader allocates nothing.
 */
public final class RangeList {

    long[] start;
    int[] length;
    int[] offset;
    int count;

    public RangeList(int capacity) {
        start = new long[capacity];
        length = new int[capacity];
        offset = new int[capacity];
    }

    public void clear() {
        count = 0;
    }

    public int count() {
        return count;
    }

    public long start(int i) {
        return start[i];
    }

    public int length(int i) {
        return length[i];
    }

    /** Where range {@code i}'s bytes go in the buffer. */
    public int offset(int i) {
        return offset[i];
    }

    public void setOffset(int i, int value) {
        offset[i] = value;
    }

    /** Appends a range; returns its index. */
    public int add(long address, int bytes, int at) {
        if (count == start.length) {
            int capacity = Math.max(8, count * 2);
            start = Arrays.copyOf(start, capacity);
            length = Arrays.copyOf(length, capacity);
            offset = Arrays.copyOf(offset, capacity);
        }
        start[count] = address;
        length[count] = bytes;
        offset[count] = at;
        return count++;
    }

    /** Where the bytes of the last range end in the buffer: 0 when there is none. */
    public int end() {
        return count == 0 ? 0 : offset[count - 1] + length[count - 1];
    }

    /** Lays the ranges out one after another in the buffer, from 0; returns the bytes they take. */
    public int packOffsets() {
        int total = 0;
        for (int r = 0; r < count; r++) {
            offset[r] = total;
            total += length[r];
        }
        return total;
    }

    /** Makes room for {@code n} ranges; what the list held may be lost. */
    void ensureCapacity(int n) {
        if (start.length < n) {
            int capacity = Math.max(n, start.length * 2);
            start = new long[capacity];
            length = new int[capacity];
            offset = new int[capacity];
            count = 0;
        }
    }

    /** Puts a range at index {@code i}, below the capacity {@link #ensureCapacity} made. */
    void set(int i, long address, int bytes, int at) {
        start[i] = address;
        length[i] = bytes;
        offset[i] = at;
    }

    /** Copies {@code n} ranges of {@code from}, from its first, to index {@code to} of this list. */
    void copyFrom(RangeList from, int to, int n) {
        System.arraycopy(from.start, 0, start, to, n);
        System.arraycopy(from.length, 0, length, to, n);
        System.arraycopy(from.offset, 0, offset, to, n);
    }

    /** Reads the first {@code n} ranges into {@code dst} in one call; how many, from the first, arrived whole. */
    int readInto(dev.remora.ports.RemoteMemory memory, byte[] dst, int n) {
        return memory.readPrefix(start, length, dst, offset, n);
    }
}
