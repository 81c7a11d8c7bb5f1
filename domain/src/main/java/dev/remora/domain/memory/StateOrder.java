package dev.remora.domain.memory;

/**
 * Where a batch reads the thread states among the ranges that hold their threads' frames.
 *
 * <p>Reading a running thread's stack slows its next writes to those lines for a moment, and a thread
 * state read in that moment finds the thread, more often than chance, in code that writes its stack
 * (calls into and out of C, generators resuming): on CPython 3.15, with the sampler and the target on
 * different CPUs, tiny functions called through {@code map()} or a generator lost 5 to 15 points of
 * their share against {@code --blocking} when the stack was read first. Read first, though, the thread
 * state names a frame that may have returned by the time its frames are read; a version that clears a
 * returned frame's code shows that, and one that keeps it would show the frame under whatever call
 * took its caller's slot since: a stack that never was.
 */
public enum StateOrder {
    /** Thread states before the frames: where a returned frame's code reads cleared. */
    STATE_FIRST,
    /** Frames, then thread states, then the frames' second copies: a frame that changed around the state differs. */
    STATE_BETWEEN
}
