package dev.remora.domain.nativestack;

/**
 * Where runs of the line programs may resume, sorted by address: each sequence's first row and a
 * row about every {@link #RESUME_BYTES} of opcodes after it, with the end of the sequence, the unit,
 * and the state after that row. A lookup runs at most that many bytes of one sequence.
 */
final class LineIndex {

    /** Opcode bytes between resume points: about 300 rows, a few microseconds to run. */
    static final int RESUME_BYTES = 1024;

    private final long[] addresses;
    private final long[] ends;
    private final int[] units;
    private final int[] offsets;
    private final long[] files;
    private final long[] lines;

    /** Takes ownership of the arrays, sorted by address (unsigned), of one length. */
    LineIndex(long[] addresses, long[] ends, int[] units, int[] offsets, long[] files, long[] lines) {
        this.addresses = addresses;
        this.ends = ends;
        this.units = units;
        this.offsets = offsets;
        this.files = files;
        this.lines = lines;
    }

    int size() {
        return addresses.length;
    }

    /** The last resume point at or below {@code pc}, or -1. */
    int lastAtOrBelow(long pc) {
        int lo = 0;
        int hi = addresses.length - 1;
        int last = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(addresses[mid], pc) <= 0) {
                last = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return last;
    }

    /** Whether resume point {@code i}'s sequence ends above {@code pc}. */
    boolean reaches(int i, long pc) {
        return Long.compareUnsigned(pc, ends[i]) < 0;
    }

    int unit(int i) {
        return units[i];
    }

    LineState state(int i) {
        return new LineState(offsets[i], addresses[i], files[i], lines[i]);
    }
}
