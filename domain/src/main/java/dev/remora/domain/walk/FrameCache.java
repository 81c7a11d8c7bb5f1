package dev.remora.domain.walk;

import dev.remora.domain.model.FrameInfo;

import java.util.HashMap;
import java.util.Map;

/**
 * The frames one thread showed in its previous walk, by frame address. A frame whose executable and
 * instruction pointer are unchanged is the same Python frame at the same place, so its resolved
 * {@link FrameInfo} is reused without touching the code object.
 */
final class FrameCache {

    private record Entry(long executable, long instrPtr, FrameInfo frame) {}

    private Map<Long, Entry> previous = new HashMap<>();
    private Map<Long, Entry> current = new HashMap<>();
    private long hits;
    private long misses;

    FrameInfo lookup(long frameAddress, long executable, long instrPtr) {
        Entry e = previous.get(frameAddress);
        if (e != null && e.executable == executable && e.instrPtr == instrPtr) {
            hits++;
            current.put(frameAddress, e);
            return e.frame;
        }
        misses++;
        return null;
    }

    void remember(long frameAddress, long executable, long instrPtr, FrameInfo frame) {
        current.put(frameAddress, new Entry(executable, instrPtr, frame));
    }

    /** Ends a walk: what it saw becomes what the next walk may reuse. */
    void finishWalk() {
        Map<Long, Entry> spare = previous;
        previous = current;
        spare.clear();
        current = spare;
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }
}
