package dev.remora.domain.profile;

/**
 * How the sampling went.
 *
 * @param attempts walks of the target that were started
 * @param failures walks that failed as a whole (the target moved under them)
 * @param incompleteStacks thread stacks that could not be read to the end and were not counted
 * @param missed scheduled sample times that passed while the sampler was still busy
 * @param elapsedNanos wall time from the first to the last walk
 */
public record SamplingStats(long attempts, long failures, long incompleteStacks, long missed, long elapsedNanos) {

    public double achievedRate() {
        return elapsedNanos <= 0 ? 0 : attempts * 1e9 / elapsedNanos;
    }

    public double errorRate() {
        return attempts == 0 ? 0 : (double) failures / attempts;
    }
}
