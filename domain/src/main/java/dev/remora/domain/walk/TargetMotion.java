package dev.remora.domain.walk;

/**
 * Whether the target's memory can move while a stack is read. It decides what a frame pushed above the
 * one the eval loop's record names (3.11, 3.12) means when both copies of the record agree: on a
 * running thread, a call that came and went between the copies, whose record reads the same before and
 * after it; on a held one, a call caught while it is made, not yet the current frame. And what an
 * innermost frame whose code reads cleared means: on a running thread, one that returned before it was
 * read; on a held one, a return caught halfway.
 */
enum TargetMotion {
    /** A running process: its memory moves under the read. */
    RUNS_ON,
    /** A core, or a process whose threads are stopped for the sample ({@code --blocking}). */
    HELD_STILL
}
