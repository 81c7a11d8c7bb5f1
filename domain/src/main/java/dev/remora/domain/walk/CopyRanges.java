package dev.remora.domain.walk;

import dev.remora.domain.memory.RangeList;

/**
 * The ranges one {@link StackCopy} reads, in order: the stack's ranges (frames outside the data
 * stack's chunk, then the chunk), the thread state, then the stack's ranges again, mirrored; and
 * where each range's bytes sit once read.
 */
final class CopyRanges {

    private final RangeList ranges = new RangeList(8);
    /** The stack's ranges in each copy; the thread state is range {@code stackRanges}. */
    private int stackRanges;

    /** Starts a plan: the stack's ranges come first. */
    void clear() {
        ranges.clear();
        stackRanges = 0;
    }

    void addStack(long address, int bytes) {
        ranges.add(address, bytes, 0);
    }

    /** Ends a plan: the thread state, then the stack's ranges again, the last first. */
    void endWithState(long tstate, int length) {
        stackRanges = ranges.count();
        ranges.add(tstate, length, 0);
        for (int r = stackRanges - 1; r >= 0; r--) {
            ranges.add(ranges.start(r), ranges.length(r), 0);
        }
    }

    /** The ranges, for a read of their own. */
    RangeList list() {
        return ranges;
    }

    int count() {
        return ranges.count();
    }

    int stackRanges() {
        return stackRanges;
    }

    long start(int r) {
        return ranges.start(r);
    }

    int length(int r) {
        return ranges.length(r);
    }

    int offset(int r) {
        return ranges.offset(r);
    }

    void setOffset(int r, int at) {
        ranges.setOffset(r, at);
    }

    long stateAddress() {
        return ranges.start(stackRanges);
    }

    /** Where the thread state's bytes sit. */
    int stateOffset() {
        return ranges.offset(stackRanges);
    }

    /** Where the second copy of stack range {@code r} sits. */
    int secondOffset(int r) {
        return ranges.offset(2 * stackRanges - r);
    }

    /** Where the first copy holds {@code n} bytes at {@code address}, or -1. */
    int firstCopyOf(long address, int n) {
        int r = rangeHolding(address, n);
        return r < 0 ? -1 : ranges.offset(r) + (int) (address - ranges.start(r));
    }

    /** Where the second copy holds {@code n} bytes at {@code address}, or -1. */
    int secondCopyOf(long address, int n) {
        int r = rangeHolding(address, n);
        return r < 0 ? -1 : secondOffset(r) + (int) (address - ranges.start(r));
    }

    /** The stack range whose copies hold {@code n} bytes at {@code address}, or -1. */
    private int rangeHolding(long address, int n) {
        for (int r = 0; r < stackRanges; r++) {
            long delta = address - ranges.start(r);
            if (delta >= 0 && delta <= ranges.length(r) - n) {
                return r;
            }
        }
        return -1;
    }
}
