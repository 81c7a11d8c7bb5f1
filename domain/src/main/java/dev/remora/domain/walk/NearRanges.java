package dev.remora.domain.walk;

/**
 * Address ranges a stack copy reads besides the data stack's chunk (generator and coroutine frames,
 * entry frames on the C stack, frames in older chunks), merged when nearer than {@value #MERGE_GAP}
 * bytes and bounded in count and bytes, so that garbage cannot grow a copy without end.
 */
final class NearRanges {

    /** Ranges nearer than this are read as one. */
    static final int MERGE_GAP = 4096;
    static final int MAX_RANGES = 64;
    static final long MAX_BYTES = 1 << 22;

    long[] start = new long[MAX_RANGES];
    int[] length = new int[MAX_RANGES];
    /** The walk that last needed each range ({@link #keepRecent}); 0 where ranges are not aged. */
    private final int[] neededIn = new int[MAX_RANGES];
    /** Where in that walk's order of needs each range first came: 0 for the walk's innermost frame. */
    private final int[] placeInWalk = new int[MAX_RANGES];
    /** Range indices, most recently needed last ({@link #byRecency}). */
    private final int[] recency = new int[MAX_RANGES];
    int count;
    long total;

    void clear() {
        count = 0;
        total = 0;
    }

    /** @return false when the range would exceed the bounds */
    boolean add(long address, int bytes) {
        return add(address, bytes, 0, 0);
    }

    private boolean add(long address, int bytes, int walk, int place) {
        long end = address + bytes;
        for (int i = 0; i < count; i++) {
            long s = start[i], e = s + length[i];
            if (address <= e + MERGE_GAP && end >= s - MERGE_GAP) {
                long ns = Math.min(s, address), ne = Math.max(e, end);
                if (total + (ne - ns) - (e - s) > MAX_BYTES) {
                    return false;
                }
                total += (ne - ns) - (e - s);
                start[i] = ns;
                length[i] = (int) (ne - ns);
                if (walk > neededIn[i]) {
                    neededIn[i] = walk;
                    placeInWalk[i] = place;
                } else if (walk == neededIn[i]) {
                    placeInWalk[i] = Math.min(placeInWalk[i], place);
                }
                return true;
            }
        }
        if (count == MAX_RANGES || total + bytes > MAX_BYTES) {
            return false;
        }
        start[count] = address;
        length[count] = bytes;
        neededIn[count] = walk;
        placeInWalk[count] = place;
        count++;
        total += bytes;
        return true;
    }

    /** Removes the ranges that overlap {@code [address, address + bytes)}; returns whether any did. */
    boolean removeOverlapping(long address, int bytes) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            kept = start[i] < address + bytes && address < start[i] + length[i] ? drop(i, kept) : keep(i, kept);
        }
        boolean removed = kept < count;
        count = kept;
        return removed;
    }

    /** Drops range {@code i} while compacting: {@code kept} stay. */
    private int drop(int i, int kept) {
        total -= length[i];
        return kept;
    }

    /** Moves range {@code i} to {@code kept}, the next place of those kept while compacting. */
    private int keep(int i, int kept) {
        start[kept] = start[i];
        length[kept] = length[i];
        neededIn[kept] = neededIn[i];
        placeInWalk[kept] = placeInWalk[i];
        return kept + 1;
    }

    /** Adds {@code other}'s ranges, as many as the bounds allow. */
    void addAll(NearRanges other) {
        for (int i = 0; i < other.count; i++) {
            add(other.start[i], other.length[i]);
        }
    }

    /**
     * Keeps the ranges some walk of the last {@code age} needed, {@code walk} being the one now ending
     * and {@code needed} what it needed: a thread that switches between calls whose frames sit in
     * different places is copied with all of them, and a frame no walk needs lately leaves the copy.
     */
    void keepRecent(NearRanges needed, int walk, int age) {
        int kept = 0;
        for (int i = 0; i < count; i++) {
            kept = walk - neededIn[i] > age ? drop(i, kept) : keep(i, kept);
        }
        count = kept;
        for (int i = 0; i < needed.count; i++) {
            if (!add(needed.start[i], needed.length[i], walk, i)) {
                copyFrom(needed);
                java.util.Arrays.fill(neededIn, 0, count, walk);
                for (int r = 0; r < count; r++) {
                    placeInWalk[r] = r;
                }
                return;
            }
        }
    }

    void copyFrom(NearRanges other) {
        System.arraycopy(other.start, 0, start, 0, other.count);
        System.arraycopy(other.length, 0, length, 0, other.count);
        System.arraycopy(other.neededIn, 0, neededIn, 0, other.count);
        System.arraycopy(other.placeInWalk, 0, placeInWalk, 0, other.count);
        count = other.count;
        total = other.total;
    }

    /**
     * The ranges' indices in the order to copy them toward the thread state: least recently needed
     * first, the last walk's innermost frame last (nearest it, where the two copies are nearest in
     * time). Ranges that are not aged keep the order they were added in. Valid until the ranges change.
     */
    int[] byRecency() {
        for (int i = 0; i < count; i++) {
            int r = i;
            int j = i;
            for (; j > 0 && before(r, recency[j - 1]); j--) {
                recency[j] = recency[j - 1];
            }
            recency[j] = r;
        }
        return recency;
    }

    /** Whether range {@code a} is copied before range {@code b}: needed longer ago, or further out in the same walk. */
    private boolean before(int a, int b) {
        return neededIn[a] != neededIn[b] ? neededIn[a] < neededIn[b] : placeInWalk[a] > placeInWalk[b];
    }
}
