package dev.remora.app.profiling;

/**
 * The sampling thread's claim on a CPU. A tick must be taken when it falls due, not when the target
 * or the JVM's compiler threads next give the CPU up: the moment they do depends on what the target is
 * doing (a sleep, say), and samples taken then over-count it. So the sampler waits for its ticks at
 * {@link Level#PROMPT} (unless --normal-priority), and catches up at {@link Level#NORMAL}, so that a
 * sampler that cannot keep up does not hold a CPU from everything else.
 */
public interface SamplerPriority {

    enum Level {
        /** Woken the moment its tick falls due. */
        PROMPT,
        /** Shares the CPU like any thread. */
        NORMAL
    }

    /** Leaves the thread as it is. */
    SamplerPriority UNCHANGED = level -> {};

    /** Asks for {@code level} for the calling thread; a refusal leaves it as it was. */
    void set(Level level);
}
