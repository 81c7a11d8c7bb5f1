package dev.remora.domain.walk;

/**
 * The last few {@code _PyCFrame} records (3.11, 3.12) a thread's current frame was named in, kept
 * among a stack copy's ranges: C code calling back into Python ({@code sorted()} with a Python key)
 * switches the thread between the records of nested eval loops at every call, and a copy that held
 * only the last one seen would miss the other every other time.
 */
final class RecentCFrames {

    private final long[] records = new long[4];
    private int next;

    void remember(long cframe) {
        for (long known : records) {
            if (known == cframe) {
                return;
            }
        }
        records[next] = cframe;
        next = (next + 1) % records.length;
    }

    /** Adds the records, {@code size} bytes each, to the ranges the next copy reads. */
    void planInto(NearRanges ranges, int size) {
        for (long cframe : records) {
            if (cframe != 0) {
                ranges.add(cframe, size);
            }
        }
    }
}
