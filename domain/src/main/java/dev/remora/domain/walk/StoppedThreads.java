package dev.remora.domain.walk;

/**
 * A target whose threads are stopped for each sample ({@code --blocking}), which can let them run
 * on for a moment. A thread stopped in the middle of a call (3.11: a frame pushed before its code is
 * written; 3.12: the eval loop's record named before its current frame is filled in) reads torn
 * however often its stopped memory is read; once it has run a few microseconds, it reads whole.
 */
@FunctionalInterface
public interface StoppedThreads {

    /** A target that runs on by itself: reading it again is all it takes. */
    StoppedThreads RUNNING = turn -> false;

    /**
     * Lets the stopped threads run a moment and stops them again; returns whether they are stopped
     * again (false: they run, and are read as a running target is). {@code turn} counts the times
     * within one tick, from 0: a thread let run too briefly may not have been scheduled at all, so
     * each turn may run longer than the last.
     */
    boolean runOnAMoment(int turn);
}
