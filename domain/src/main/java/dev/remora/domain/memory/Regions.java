package dev.remora.domain.memory;

import java.util.Arrays;

/**
 * Ranges fetched together in one batch and where their bytes sit in {@link #bytes}. Recorded ranges
 * are appended sorted and merged into as few ranges as the kernel can fetch cheaply: it pins every
 * page of every range separately, so neighbours on shared pages are fetched as one range, while a
 * gap that would add a page is left out.
 */
final class Regions {

    static final int PAGE_SHIFT = 12;
    /** A merged range longer than this is not grown further: copying it would cost more than it saves. */
    private static final int MAX_MERGED = 64 * 1024;
    private static final int MAX_BYTES = 8 << 20;

    long[] start = new long[256];
    int[] length = new int[256];
    int[] offset = new int[256];
    byte[] bytes = new byte[64 * 1024];
    int count;
    private long[] sortKeys = new long[256];

    void clear() {
        count = 0;
    }

    /** Bytes used by the ranges so far. */
    int end() {
        return count == 0 ? 0 : offset[count - 1] + length[count - 1];
    }

    /** Appends {@code ranges} sorted by address and merged where that pins no extra page. */
    void appendMerged(RecordedRanges ranges) {
        int n = ranges.count;
        if (n == 0) {
            return;
        }
        if (sortKeys.length < n) {
            sortKeys = new long[ranges.start.length];
        }
        // Addresses are user-space (below 2^47) and n is below 2^16: the index fits in the low bits.
        for (int i = 0; i < n; i++) {
            sortKeys[i] = ranges.start[i] << 16 | i;
        }
        Arrays.sort(sortKeys, 0, n);
        long start = -1, end = -1;
        for (int k = 0; k < n; k++) {
            int i = (int) (sortKeys[k] & 0xFFFF);
            long s = ranges.start[i], e = s + ranges.length[i];
            if (start >= 0 && worthMerging(start, end, s, e)) {
                end = Math.max(end, e);
                continue;
            }
            if (start >= 0) {
                add(start, (int) (end - start));
            }
            start = s;
            end = e;
        }
        add(start, (int) (end - start));
    }

    private static boolean worthMerging(long start, long end, long s, long e) {
        long mergedEnd = Math.max(end, e);
        return mergedEnd - start <= MAX_MERGED && pages(start, mergedEnd) <= pages(start, end) + pages(s, e);
    }

    private static long pages(long start, long end) {
        return ((end - 1) >>> PAGE_SHIFT) - (start >>> PAGE_SHIFT) + 1;
    }

    /** Appends one range after the others; false when the batch would grow too large. */
    boolean add(long address, int size) {
        int at = end();
        if (!reserve(at + (long) size)) {
            return false;
        }
        if (count == start.length) {
            start = Arrays.copyOf(start, count * 2);
            length = Arrays.copyOf(length, count * 2);
            offset = Arrays.copyOf(offset, count * 2);
        }
        start[count] = address;
        length[count] = size;
        offset[count] = at;
        count++;
        return true;
    }

    /** Makes {@link #bytes} hold at least {@code total} bytes; false when that would be too large. */
    boolean reserve(long total) {
        if (total > MAX_BYTES) {
            return false;
        }
        if (bytes.length < total) {
            bytes = Arrays.copyOf(bytes, (int) Math.max(total, Math.min(MAX_BYTES, bytes.length * 2L)));
        }
        return true;
    }

    /**
     * Where {@code [address, address + bytes)} sits in {@link #bytes}, searching ranges
     * {@code [from, to)}, which are sorted and disjoint; -1 when no one range holds all of it.
     */
    int find(long address, int size, int from, int to) {
        int lo = from, hi = to - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(start[mid], address) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (hi < from) {
            return -1;
        }
        long delta = address - start[hi];
        // Written so that a garbage address far above a region cannot overflow into a match.
        return delta >= 0 && delta <= length[hi] - (long) size ? offset[hi] + (int) delta : -1;
    }
}
