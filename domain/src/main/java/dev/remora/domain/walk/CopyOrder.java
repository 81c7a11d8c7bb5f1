package dev.remora.domain.walk;

import dev.remora.domain.offsets.PoppedFrames;

/**
 * Where a {@link StackCopy} reads the thread state among its two copies of the stack.
 *
 * <p>Reading a running thread's stack slows its next writes to those lines for a moment, and a thread
 * state read in that moment finds the thread, more often than chance, in code that writes its stack
 * (calls into and out of C, generators resuming): on CPython 3.15, with the sampler and the target on
 * different CPUs, tiny functions called through {@code map()} or a generator lost 5 to 15 points of
 * their share against {@code --blocking} when the stack was copied first. Read first, the thread state
 * names a frame that may have returned by the time the stack is copied; a version that clears a
 * returned frame's code shows that, and one that keeps it would show the frame under whatever call
 * took its caller's slot since: a stack that never was.
 */
enum CopyOrder {
    /** The thread state, the stack, the stack again: where a returned frame's code reads cleared. */
    STATE_FIRST,
    /** The stack, the thread state, the stack again: a frame that changed around the thread state differs. */
    STATE_BETWEEN;

    static CopyOrder of(PoppedFrames popped) {
        return popped == PoppedFrames.CODE_CLEARED ? STATE_FIRST : STATE_BETWEEN;
    }
}
