package dev.remora.domain.profile;

import dev.remora.domain.model.ThreadStatus;

/** Which thread samples a profile keeps, as CPython's profiler defines its modes. */
public enum ProfileMode {
    /** Every sampled thread, whatever it is doing: wall-clock time. */
    WALL(0),
    /** Only threads on a CPU. */
    CPU(ThreadStatus.ON_CPU.bit()),
    /** Only the thread holding the GIL. */
    GIL(ThreadStatus.HAS_GIL.bit()),
    /** Only threads handling an exception. */
    EXCEPTION(ThreadStatus.HAS_EXCEPTION.bit());

    private final int requiredStatus;

    ProfileMode(int requiredStatus) {
        this.requiredStatus = requiredStatus;
    }

    public boolean keeps(int status) {
        return (status & requiredStatus) == requiredStatus;
    }
}
