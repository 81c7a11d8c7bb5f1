package dev.remora.domain.model;

/** Facts about a thread at the moment of the snapshot. */
public enum ThreadStatus {
    HAS_GIL("has_gil"),
    ON_CPU("on_cpu"),
    /** Whether the thread is on a CPU cannot be told (e.g. a core file). */
    UNKNOWN("unknown"),
    GIL_REQUESTED("gil_requested"),
    HAS_EXCEPTION("has_exception"),
    MAIN_THREAD("main_thread");

    private final String label;

    ThreadStatus(String label) {
        this.label = label;
    }

    public int bit() {
        return 1 << ordinal();
    }

    public boolean in(int bits) {
        return (bits & bit()) != 0;
    }

    public static java.util.Set<ThreadStatus> fromBits(int bits) {
        java.util.EnumSet<ThreadStatus> set = java.util.EnumSet.noneOf(ThreadStatus.class);
        for (ThreadStatus s : values()) {
            if (s.in(bits)) {
                set.add(s);
            }
        }
        return set;
    }

    /** Stable name used in machine-readable output. */
    public String label() {
        return label;
    }
}
