package dev.remora.domain.walk;

/** Counters of the caches and reads behind the snapshots an attached process has taken so far. */
public record WalkStats(long snapshots, long codeObjectHits, long codeObjectMisses, long frameCacheHits,
                        long frameCacheMisses, long remoteReads, long remoteBytes) {}
