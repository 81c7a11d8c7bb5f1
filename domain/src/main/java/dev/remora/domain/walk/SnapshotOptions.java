package dev.remora.domain.walk;

/**
 * What a snapshot covers.
 *
 * @param allThreads every thread of every interpreter, rather than each interpreter's main thread
 * @param nativeFrames mark calls into C between Python frames with a {@code <native>} frame
 * @param gcFrames mark the frame that started a garbage collection with a {@code <GC>} frame (where
 *     the target exports it)
 * @param cpuState ask the OS whether each thread is on a CPU (a file read per thread: samplers that
 *     do not need it leave it off, and the status says unknown)
 * @param opcodes read the instruction the innermost Python frame of each thread is executing
 */
public record SnapshotOptions(boolean allThreads, boolean nativeFrames, boolean gcFrames, boolean cpuState,
                              boolean opcodes) {

    public static SnapshotOptions threads(boolean allThreads) {
        return new SnapshotOptions(allThreads, false, false, true, false);
    }
}
