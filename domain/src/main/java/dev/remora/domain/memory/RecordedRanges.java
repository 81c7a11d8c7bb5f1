package dev.remora.domain.memory;

import java.util.Arrays;

/** Ranges read during one snapshot, in the order read; bounded so a runaway walk cannot grow it without end. */
final class RecordedRanges {

    private static final int MAX_RANGES = 1 << 14;
    private static final int MAX_RANGE_BYTES = 4 << 20;

    long[] start = new long[256];
    int[] length = new int[256];
    int count;
    /** What the current batch was planned from, once one was. */
    private RecordedRanges planned;

    void add(long address, int bytes) {
        if (count == MAX_RANGES || bytes <= 0 || bytes > MAX_RANGE_BYTES) {
            return;
        }
        if (count == start.length) {
            start = Arrays.copyOf(start, count * 2);
            length = Arrays.copyOf(length, count * 2);
        }
        start[count] = address;
        length[count] = bytes;
        count++;
    }

    /**
     * Ends a snapshot's recording: when its ranges differ from the plan they become the plan.
     * Recording starts afresh either way.
     *
     * @return whether the plan changed
     */
    boolean replan() {
        boolean changed = planned == null || !sameAs(planned);
        if (changed) {
            if (planned == null) {
                planned = new RecordedRanges();
            }
            planned.copyFrom(this);
        }
        count = 0;
        return changed;
    }

    /** The ranges the current batch is planned from (after a {@link #replan}). */
    RecordedRanges plan() {
        return planned;
    }

    private boolean sameAs(RecordedRanges other) {
        return count == other.count
                && Arrays.equals(start, 0, count, other.start, 0, count)
                && Arrays.equals(length, 0, count, other.length, 0, count);
    }

    private void copyFrom(RecordedRanges other) {
        if (start.length < other.count) {
            start = new long[other.start.length];
            length = new int[other.start.length];
        }
        System.arraycopy(other.start, 0, start, 0, other.count);
        System.arraycopy(other.length, 0, length, 0, other.count);
        count = other.count;
    }
}
