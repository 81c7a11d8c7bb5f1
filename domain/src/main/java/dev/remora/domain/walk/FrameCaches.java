package dev.remora.domain.walk;

import dev.remora.domain.memory.LongIntMap;

import java.util.ArrayList;
import java.util.List;

/**
 * The frame cache of each thread, by thread-state address. Threads that a walk did not meet are gone
 * (or were not asked for): their caches are dropped when it ends, their counters kept.
 */
final class FrameCaches {

    private LongIntMap slotByThread = new LongIntMap(16);
    private List<FrameCache> caches = new ArrayList<>();
    private long[] owners = new long[16];
    private boolean[] seen = new boolean[16];
    private int seenCount;
    private long retiredHits;
    private long retiredMisses;

    void beginWalk() {
        java.util.Arrays.fill(seen, 0, caches.size(), false);
        seenCount = 0;
    }

    FrameCache forThread(long threadState) {
        int slot = slotByThread.get(threadState);
        if (slot == LongIntMap.ABSENT) {
            slot = caches.size();
            caches.add(new FrameCache());
            if (slot == owners.length) {
                owners = java.util.Arrays.copyOf(owners, slot * 2);
                seen = java.util.Arrays.copyOf(seen, slot * 2);
            }
            owners[slot] = threadState;
            slotByThread.put(threadState, slot);
        }
        if (!seen[slot]) {
            seen[slot] = true;
            seenCount++;
        }
        return caches.get(slot);
    }

    /** Drops the caches of threads this walk did not meet; nothing to do in the usual steady state. */
    void endWalk() {
        if (seenCount == caches.size()) {
            return;
        }
        LongIntMap kept = new LongIntMap(Math.max(16, seenCount));
        List<FrameCache> keptCaches = new ArrayList<>(seenCount);
        long[] keptOwners = new long[Math.max(16, owners.length)];
        for (int i = 0; i < caches.size(); i++) {
            if (seen[i]) {
                keptOwners[keptCaches.size()] = owners[i];
                kept.put(owners[i], keptCaches.size());
                keptCaches.add(caches.get(i));
            } else {
                retiredHits += caches.get(i).hits();
                retiredMisses += caches.get(i).misses();
            }
        }
        slotByThread = kept;
        caches = keptCaches;
        owners = keptOwners;
        seen = new boolean[keptOwners.length];
    }

    void distrustMarkers() {
        caches.forEach(FrameCache::distrustMarker);
    }

    long hits() {
        long hits = retiredHits;
        for (FrameCache c : caches) {
            hits += c.hits();
        }
        return hits;
    }

    long misses() {
        long misses = retiredMisses;
        for (FrameCache c : caches) {
            misses += c.misses();
        }
        return misses;
    }
}
