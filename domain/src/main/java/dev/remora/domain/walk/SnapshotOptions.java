package dev.remora.domain.walk;

/**
 * What a snapshot covers.
 *
 * @param allThreads every thread of every interpreter, rather than each interpreter's main thread
 * @param nativeFrames mark calls into C between Python frames with a {@code <native>} frame
 * @param gcFrames mark the frame that started a garbage collection with a {@code <GC>} frame (where
 *     the target exports it)
 */
public record SnapshotOptions(boolean allThreads, boolean nativeFrames, boolean gcFrames) {

    public static SnapshotOptions threads(boolean allThreads) {
        return new SnapshotOptions(allThreads, false, false);
    }
}
