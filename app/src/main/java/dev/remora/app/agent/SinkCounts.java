package dev.remora.app.agent;

/**
 * How one sink fared so far.
 *
 * @param failedTries tries that failed and were to be made again
 * @param refused windows the back end refused for what they were, dropped
 * @param dropped windows pushed out of a full queue by newer ones
 */
public record SinkCounts(String sink, long delivered, long failedTries, long refused, long dropped, int queued,
                         long queuedBytes) {}
