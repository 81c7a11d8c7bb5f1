package dev.remora.domain.offsets;

/**
 * How a thread state whose thread has not started yet looks in its interpreter's list: the parent
 * links it in before the new OS thread runs, and such a state is not a thread yet.
 */
public enum UnstartedThreads {
    /** Its native thread id is still 0 until the new thread binds itself (3.12+). */
    ZERO_NATIVE_ID,
    /**
     * It carries the ids of the thread that created it, and has no data stack yet, until the new thread
     * writes its own ids (3.11's {@code t_bootstrap}).
     */
    CREATOR_IDS
}
