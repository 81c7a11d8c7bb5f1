package dev.remora.domain.model;

import java.util.Optional;

/**
 * Receives one pass over the target's threads as it happens, so a sampler can aggregate frames
 * without building lists per sample. Frames of a thread come innermost first.
 */
public interface StackVisitor {

    /** An interpreter's threads follow. */
    default void beginInterpreter(long interpreterId) {}

    /** A thread state of the interpreter last begun whose thread has not started yet: it is not walked. */
    default void threadNotStarted() {}

    /**
     * A thread is next.
     *
     * @param status {@link ThreadStatus} bits
     * @return whether to walk its frames; when false, neither frames nor the end of the thread follow
     */
    boolean beginThread(long interpreterId, long threadId, int status);

    void frame(FrameInfo frame);

    /**
     * A frame of Python code, with where it lives: {@code frameAddress} is the interpreter frame
     * (3.10: the frame object), {@code codeAddress} its code object. Visitors that read no more of a
     * frame than its {@link FrameInfo} need not override it.
     */
    default void pythonFrame(FrameInfo frame, long frameAddress, long codeAddress) {
        frame(frame);
    }

    /**
     * The thread's outermost frames, after those sent to {@link #frame}: {@code outermostFirst[0 ..
     * count)}, which this visitor must not keep. Equal {@code tailId} and {@code count} mean equal
     * frames, so a visitor may remember what it made of them.
     */
    default void tail(long tailId, FrameInfo[] outermostFirst, int count) {
        for (int i = count - 1; i >= 0; i--) {
            frame(outermostFirst[i]);
        }
    }

    /**
     * What the thread's CPU clock said once its walk was over, before its frames (only where walks
     * read it): its status, without {@link ThreadStatus#ON_CPU} if the tick does not count it on a CPU
     * after all, and how many samples of CPU time the stack stands for (0, 1 or 2: see the walk's CPU
     * check).
     *
     * @param status {@link ThreadStatus} bits
     */
    default void statusAfterWalk(int status, int cpuSamples) {}

    /** The instruction the thread's innermost Python frame is executing, when opcodes were asked for. */
    default void opcode(String name) {}

    /** @param problem why the walk could not read the whole stack, if it could not */
    void endThread(Optional<StackProblem> problem);
}
