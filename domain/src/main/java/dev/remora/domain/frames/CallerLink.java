package dev.remora.domain.frames;

/**
 * What a frame's link to its caller may do while the frame lives, and so what a second reading of it
 * may show without the stack having changed under the walk.
 */
public enum CallerLink {
    /** Set once when the frame is pushed: any other value read back means the frame was popped. */
    FIXED,
    /**
     * A generator's or coroutine's frame: the link is set to whoever resumes it and cleared each time
     * it yields. Read back as cleared, the frame yielded after the moment the walk stands for; that
     * moment's stack is still the one walked. (Tiny functions called from a generator expression
     * make the generator yield every microsecond: a proof that rejected this would keep mostly the
     * moments between their calls.)
     */
    RESUMABLE;

    /** Whether {@code readBack} is a later reading of a link the walk saw as {@code seen}. */
    public boolean holds(long seen, long readBack) {
        return readBack == seen || this == RESUMABLE && readBack == 0;
    }

    /** Whether the frame yielded since it was walked: its other fields moved on with it. */
    public boolean suspendedSince(long seen, long readBack) {
        return this == RESUMABLE && readBack == 0 && seen != 0;
    }
}
