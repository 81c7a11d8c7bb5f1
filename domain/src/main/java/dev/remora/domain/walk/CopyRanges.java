package dev.remora.domain.walk;

import dev.remora.domain.memory.RangeList;
import dev.remora.domain.memory.StateOrder;

/**
 * The ranges one {@link StackCopy} reads, in order: the stack's ranges (frames outside the data
 * stack's chunk, then the chunk) and the thread state, before them or after them as the
 * {@link StateOrder} says, then the stack's ranges again, mirrored; and where each range's bytes sit
 * once read.
 */
final class CopyRanges {

    private final StateOrder order;
    private final RangeList stacks = new RangeList(8);
    private final RangeList ranges = new RangeList(8);
    /** The stack's ranges in each copy. */
    private int stackRanges;
    /** Where the thread state sits among the ranges: 0, or after the first copies. */
    private int state;

    CopyRanges(StateOrder order) {
        this.order = order;
    }

    /** Starts a plan: the stack's ranges come first, then {@link #endWithState}. */
    void clear() {
        stacks.clear();
        ranges.clear();
        stackRanges = 0;
    }

    void addStack(long address, int bytes) {
        stacks.add(address, bytes, 0);
    }

    /**
     * Ends a plan: the thread state and the stack's ranges, in the copy's order, then the stack's
     * ranges again, the last first.
     */
    void endWithState(long tstate, int length) {
        stackRanges = stacks.count();
        state = order == StateOrder.STATE_FIRST ? 0 : stackRanges;
        ranges.clear();
        if (order == StateOrder.STATE_FIRST) {
            ranges.add(tstate, length, 0);
        }
        for (int r = 0; r < stackRanges; r++) {
            ranges.add(stacks.start(r), stacks.length(r), 0);
        }
        if (order == StateOrder.STATE_BETWEEN) {
            ranges.add(tstate, length, 0);
        }
        for (int r = stackRanges - 1; r >= 0; r--) {
            ranges.add(stacks.start(r), stacks.length(r), 0);
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

    void setOffset(int r, int at) {
        ranges.setOffset(r, at);
    }

    /** Where the thread state sits among the ranges. */
    int stateIndex() {
        return state;
    }

    long stateAddress() {
        return ranges.start(state);
    }

    /** Where the thread state's bytes sit. */
    int stateOffset() {
        return ranges.offset(state);
    }

    /** Where the first copy of stack range {@code r} sits. */
    int firstOffset(int r) {
        return ranges.offset(order == StateOrder.STATE_FIRST ? 1 + r : r);
    }

    /** Where the second copy of stack range {@code r} sits. */
    int secondOffset(int r) {
        return ranges.offset(2 * stackRanges - r);
    }

    /** Where the first copy holds {@code n} bytes at {@code address}, or -1. */
    int firstCopyOf(long address, int n) {
        int r = rangeHolding(address, n);
        return r < 0 ? -1 : firstOffset(r) + (int) (address - stacks.start(r));
    }

    /** Where the second copy holds {@code n} bytes at {@code address}, or -1. */
    int secondCopyOf(long address, int n) {
        int r = rangeHolding(address, n);
        return r < 0 ? -1 : secondOffset(r) + (int) (address - stacks.start(r));
    }

    /** Stack range {@code r}'s address and length. */
    long stackStart(int r) {
        return stacks.start(r);
    }

    int stackLength(int r) {
        return stacks.length(r);
    }

    /** The stack range whose copies hold {@code n} bytes at {@code address}, or -1. */
    private int rangeHolding(long address, int n) {
        for (int r = 0; r < stackRanges; r++) {
            long delta = address - stacks.start(r);
            if (delta >= 0 && delta <= stacks.length(r) - n) {
                return r;
            }
        }
        return -1;
    }
}
