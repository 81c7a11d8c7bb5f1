package dev.remora.domain.memory;

import java.util.Arrays;

/** Ranges read during one snapshot, in the order read; bounded so a runaway walk cannot grow it without end. */
final class RecordedRanges {

    private static final int MAX_RANGES = 1 << 14;
    private static final int MAX_RANGE_BYTES = 4 << 20;

    /** The ranges; their offsets are not used. */
    final RangeList list = new RangeList(256);
    /** What the current batch was planned from, once one was. */
    private RecordedRanges planned;

    void add(long address, int bytes) {
        if (list.count == MAX_RANGES || bytes <= 0 || bytes > MAX_RANGE_BYTES) {
            return;
        }
        list.add(address, bytes, 0);
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
            planned.list.ensureCapacity(list.count);
            planned.list.copyFrom(list, 0, list.count);
            planned.list.count = list.count;
        }
        list.clear();
        return changed;
    }

    /** The ranges the current batch is planned from (after a {@link #replan}). */
    RecordedRanges plan() {
        return planned;
    }

    private boolean sameAs(RecordedRanges other) {
        int count = list.count;
        return count == other.list.count
                && Arrays.equals(list.start, 0, count, other.list.start, 0, count)
                && Arrays.equals(list.length, 0, count, other.list.length, 0, count);
    }
}
