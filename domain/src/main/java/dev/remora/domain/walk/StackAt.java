package dev.remora.domain.walk;

/**
 * Where a walk frame by frame finds a thread's stack: the thread state's address, where the pointer
 * to the current frame sits (in the thread state, or in 3.11's and 3.12's {@code _PyCFrame}), the
 * current (innermost) frame, the sentinel frame under all others (3.15+, or 0: a walk that reaches it
 * is whole) and the frame marker kept for profilers (3.15+, or 0). One per thread walker, filled in
 * for each walk: a sample allocates nothing.
 */
final class StackAt {

    private long tstate;
    private long currentFrameField;
    private long first;
    private long base;
    private long marker;

    StackAt set(long tstate, long currentFrameField, long first, long base, long marker) {
        this.tstate = tstate;
        this.currentFrameField = currentFrameField;
        this.first = first;
        this.base = base;
        this.marker = marker;
        return this;
    }

    long tstate() {
        return tstate;
    }

    long currentFrameField() {
        return currentFrameField;
    }

    long first() {
        return first;
    }

    long base() {
        return base;
    }

    long marker() {
        return marker;
    }
}
