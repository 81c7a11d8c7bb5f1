package dev.remora.domain.walk;

/**
 * What a snapshot covers.
 *
 * @param allThreads every thread of every interpreter, rather than each interpreter's main thread
 */
public record SnapshotOptions(boolean allThreads) {}
