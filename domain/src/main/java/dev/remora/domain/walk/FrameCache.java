package dev.remora.domain.walk;

import dev.remora.domain.memory.LongIntMap;
import dev.remora.domain.memory.StateOrder;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.offsets.DebugOffsets;

import java.util.Arrays;

/**
 * The frames one thread showed in its previous walk, by frame address. A frame whose executable and
 * instruction pointer are unchanged is the same Python frame at the same place, so its resolved
 * {@link FrameInfo} is reused without touching the code object. Kept in primitive arrays so a steady
 * walk allocates nothing.
 */
final class FrameCache {

    /**
     * One walk's frames, in the order the walk met them. An unchanged stack meets them in the same
     * order again, so a lookup tries the same position first and builds the address index only when
     * the stack moved.
     */
    private static final class Generation {
        final LongIntMap slotByAddress = new LongIntMap(64);
        /** Whether {@link #slotByAddress} holds every frame added so far. */
        boolean indexed;
        long[] address = new long[64];
        long[] executable = new long[64];
        long[] instrPtr = new long[64];
        long[] epoch = new long[64];
        FrameInfo[] frame = new FrameInfo[64];
        int size;

        void clear() {
            if (indexed) {
                slotByAddress.clear();
                indexed = false;
            }
            Arrays.fill(frame, 0, size, null);
            size = 0;
        }

        /** Where this generation holds the frame at that address, trying {@code position} first; ABSENT if nowhere. */
        int slotOf(long frameAddress, int position) {
            if (position < size && address[position] == frameAddress) {
                return position;
            }
            if (!indexed) {
                for (int i = 0; i < size; i++) {
                    slotByAddress.put(address[i], i);
                }
                indexed = true;
            }
            return slotByAddress.get(frameAddress);
        }

        void add(long frameAddress, long exec, long instr, long codeEpoch, FrameInfo info) {
            if (size == frame.length) {
                address = Arrays.copyOf(address, size * 2);
                executable = Arrays.copyOf(executable, size * 2);
                instrPtr = Arrays.copyOf(instrPtr, size * 2);
                epoch = Arrays.copyOf(epoch, size * 2);
                frame = Arrays.copyOf(frame, size * 2);
            }
            address[size] = frameAddress;
            executable[size] = exec;
            instrPtr[size] = instr;
            epoch[size] = codeEpoch;
            frame[size] = info;
            if (indexed) {
                slotByAddress.put(frameAddress, size);
            }
            size++;
        }
    }

    private MarkedChain chain;
    private Generation previous = new Generation();
    private Generation current = new Generation();
    private long hits;
    private long misses;

    /** @param codeEpoch the code-object cache's {@link CodeObjects#epoch()}: frames of older epochs are stale */
    FrameInfo lookup(long frameAddress, long executable, long instrPtr, long codeEpoch) {
        int slot = previous.slotOf(frameAddress, current.size);
        if (slot != LongIntMap.ABSENT && previous.executable[slot] == executable && previous.instrPtr[slot] == instrPtr
                && previous.epoch[slot] == codeEpoch) {
            hits++;
            FrameInfo known = previous.frame[slot];
            current.add(frameAddress, executable, instrPtr, codeEpoch, known);
            return known;
        }
        misses++;
        return null;
    }

    void remember(long frameAddress, long executable, long instrPtr, long codeEpoch, FrameInfo frame) {
        current.add(frameAddress, executable, instrPtr, codeEpoch, frame);
    }

    private StackCopy copy;
    private final CpuHistory cpuHistory = new CpuHistory();

    /** Where this thread's stack is copied in one read, planned from its last walks. */
    StackCopy copy(DebugOffsets.Thread thread, StateOrder order) {
        if (copy == null) {
            copy = new StackCopy(thread, order);
        }
        return copy;
    }

    /** The thread's last proven stack, for walks that use frame markers. */
    MarkedChain chain() {
        if (chain == null) {
            chain = new MarkedChain();
        }
        return chain;
    }

    /** Forgets that the marker was proven on the chain: the next walk reads the whole stack and proves it again. */
    void distrustMarker() {
        if (chain != null) {
            chain.distrust();
        }
    }

    /** Whether the thread's last walk showed any Python frame. */
    boolean lastWalkShowedFrames() {
        return previous.size > 0;
    }

    /** Ends a walk: what it saw becomes what the next walk may reuse. */
    void finishWalk() {
        Generation spare = previous;
        previous = current;
        spare.clear();
        current = spare;
    }

    /** What the thread's CPU clock showed over its recent walks. */
    CpuHistory cpuHistory() {
        return cpuHistory;
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }
}
