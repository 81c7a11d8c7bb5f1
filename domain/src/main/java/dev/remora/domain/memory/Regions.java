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

    /** The ranges, each with where its bytes sit in {@link #bytes}. */
    final RangeList list = new RangeList(256);
    byte[] bytes = new byte[64 * 1024];
    private long[] sortKeys = new long[256];

    void clear() {
        list.clear();
    }

    /** Bytes used by the ranges so far. */
    int end() {
        return list.end();
    }

    /** Appends {@code ranges} sorted by address and merged where that pins no extra page. */
    void appendMerged(RecordedRanges ranges) {
        int n = ranges.list.count;
        if (n == 0) {
            return;
        }
        if (sortKeys.length < n) {
            sortKeys = new long[ranges.list.start.length];
        }
        // Addresses are user-space (below 2^47) and n is below 2^16: the index fits in the low bits.
        for (int i = 0; i < n; i++) {
            sortKeys[i] = ranges.list.start[i] << 16 | i;
        }
        Arrays.sort(sortKeys, 0, n);
        long start = -1, end = -1;
        for (int k = 0; k < n; k++) {
            int i = (int) (sortKeys[k] & 0xFFFF);
            long s = ranges.list.start[i], e = s + ranges.list.length[i];
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
        list.add(address, size, at);
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
            if (Long.compareUnsigned(list.start[mid], address) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        if (hi < from) {
            return -1;
        }
        long delta = address - list.start[hi];
        // Written so that a garbage address far above a region cannot overflow into a match.
        return delta >= 0 && delta <= list.length[hi] - (long) size ? list.offset[hi] + (int) delta : -1;
    }
}
