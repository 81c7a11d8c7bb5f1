package dev.remora.domain.nativestack;

import java.util.Arrays;
import java.util.Optional;

/**
 * The FDEs of one section sorted by start address, for binary search. Each FDE is decoded on first
 * use and kept: decoded entries are immutable, so a racing second decode only repeats work.
 */
final class FdeTable {

    private final CfiSection section;
    private final long[] starts;
    private final int[] offsets;
    private final Fde[] decoded;

    /** Takes ownership of the arrays; {@code starts} must be sorted (unsigned) with {@code offsets} alongside. */
    FdeTable(CfiSection section, long[] starts, int[] offsets) {
        if (starts.length != offsets.length) {
            throw new IllegalArgumentException("%d starts, %d offsets".formatted(starts.length, offsets.length));
        }
        this.section = section;
        this.starts = starts;
        this.offsets = offsets;
        this.decoded = new Fde[starts.length];
    }

    /** Sorts parallel arrays of starts and FDE offsets (unsigned order) into a table. */
    static FdeTable sorted(CfiSection section, long[] starts, int[] offsets, int count) {
        long[][] pairs = new long[count][];
        for (int i = 0; i < count; i++) {
            pairs[i] = new long[] {starts[i], offsets[i]};
        }
        Arrays.sort(pairs, (a, b) -> Long.compareUnsigned(a[0], b[0]));
        long[] s = new long[count];
        int[] o = new int[count];
        for (int i = 0; i < count; i++) {
            s[i] = pairs[i][0];
            o[i] = (int) pairs[i][1];
        }
        return new FdeTable(section, s, o);
    }

    CfiSection section() {
        return section;
    }

    int size() {
        return starts.length;
    }

    long start(int index) {
        return starts[index];
    }

    /** Entry {@code index}, decoded. */
    Fde fde(int index) throws NativeDataException {
        Fde fde = decoded[index];
        if (fde == null) {
            fde = CfiDecoder.fde(section, offsets[index]);
            decoded[index] = fde;
        }
        return fde;
    }

    /** The FDE whose range covers {@code pc} (link-time), if any. */
    Optional<Fde> find(long pc) throws NativeDataException {
        int lo = 0;
        int hi = starts.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], pc) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (found < 0) {
            return Optional.empty();
        }
        Fde fde = fde(found);
        return fde.covers(pc) ? Optional.of(fde) : Optional.empty();
    }
}
