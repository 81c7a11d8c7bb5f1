package dev.remora.domain.asyncio;

/**
 * Something read while following the task graph does not hold together: the target changed under
 * the read, or the memory is not what the offsets promise. The reading is retried, then reported.
 */
final class InconsistentGraph extends Exception {
    InconsistentGraph(String message) {
        super(message, null, false, false);
    }
}
