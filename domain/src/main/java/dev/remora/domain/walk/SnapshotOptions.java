package dev.remora.domain.walk;

/**
 * What a snapshot covers. Made by name: {@link #of} a thread scope, then {@code with...} for each
 * addition.
 *
 * @param allThreads every thread of every interpreter, rather than each interpreter's main thread
 * @param nativeFrames mark calls into C between Python frames with a {@code <native>} frame
 * @param gcFrames mark the frame that started a garbage collection with a {@code <GC>} frame (where
 *     the target exports it)
 * @param cpuState ask whether each thread is on a CPU (the OS, or the thread's CPU clock where
 *     the process was given clocks: samplers that do not need it leave it off, and the status says unknown)
 * @param opcodes read the instruction the innermost Python frame of each thread is executing
 */
public record SnapshotOptions(boolean allThreads, boolean nativeFrames, boolean gcFrames, boolean cpuState,
                              boolean opcodes) {

    /** Which threads a snapshot walks. */
    public enum Threads {
        /** Each interpreter's main thread. */
        MAIN,
        /** Every thread of every interpreter. */
        ALL;

        public static Threads all(boolean all) {
            return all ? ALL : MAIN;
        }
    }

    /** Those threads, with {@code <GC>} frames and nothing else added. */
    public static SnapshotOptions of(Threads threads) {
        return new SnapshotOptions(threads == Threads.ALL, false, true, false, false);
    }

    /** Those threads as a dump shows them: whether each is on a CPU, and no pseudo-frames. */
    public static SnapshotOptions threads(boolean allThreads) {
        return of(Threads.all(allThreads)).withGcFrames(false).withCpuState(true);
    }

    public SnapshotOptions withNativeFrames(boolean marked) {
        return new SnapshotOptions(allThreads, marked, gcFrames, cpuState, opcodes);
    }

    public SnapshotOptions withGcFrames(boolean marked) {
        return new SnapshotOptions(allThreads, nativeFrames, marked, cpuState, opcodes);
    }

    public SnapshotOptions withCpuState(boolean asked) {
        return new SnapshotOptions(allThreads, nativeFrames, gcFrames, asked, opcodes);
    }

    public SnapshotOptions withOpcodes(boolean read) {
        return new SnapshotOptions(allThreads, nativeFrames, gcFrames, cpuState, read);
    }
}
