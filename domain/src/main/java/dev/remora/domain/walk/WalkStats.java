package dev.remora.domain.walk;

/**
 * Counters of the caches and reads behind the snapshots an attached process has taken so far.
 *
 * @param batchedReads remote reads that fetched many ranges at once (a snapshot's start, a refresh)
 * @param checksFromBatch walks proven from a snapshot's batch (a stack copy that rode along, or second copies)
 * @param checkReads walks proven by a remote read of their own
 * @param markerWalks walks that reused the frames below a frame marker
 * @param framesBelowMarker frames those walks reused without reading them
 * @param markerWrites writes of a thread's frame marker into the target
 */
public record WalkStats(long snapshots, long codeObjectHits, long codeObjectMisses, long frameCacheHits,
                        long frameCacheMisses, long remoteReads, long remoteBytes, long batchedReads,
                        long checksFromBatch, long checkReads, long markerWalks, long framesBelowMarker,
                        long markerWrites) {}
