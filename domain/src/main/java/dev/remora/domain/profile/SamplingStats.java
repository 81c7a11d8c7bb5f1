package dev.remora.domain.profile;

/**
 * How the sampling went. Every tick of every thread it walked ends as a sample or as an error.
 *
 * @param ticks walks of the target that were started (one per grid point sampled)
 * @param samples thread stacks read whole and counted in the profile
 * @param errors thread ticks (or whole ticks, when the walk failed before its threads) that gave no
 *     complete stack, by reason
 * @param missed scheduled sample times that passed while the sampler was still busy
 * @param elapsedNanos wall time from the first to the last walk
 */
public record SamplingStats(long ticks, long samples, StackErrors errors, long missed, long elapsedNanos) {

    public static final SamplingStats NONE = new SamplingStats(0, 0, StackErrors.NONE, 0, 0);

    public double achievedRate() {
        return elapsedNanos <= 0 ? 0 : ticks * 1e9 / elapsedNanos;
    }

    /** E.g. {@code "3990 samples, 10 errors (10 stack moved while read)"}, for a profile's own metadata. */
    public String describe() {
        long errors = this.errors.total();
        return errors == 0 ? "%d samples, 0 errors".formatted(samples)
                : "%d samples, %d errors (%s)".formatted(samples, errors, this.errors.describe());
    }

    /** Errors among all stacks the sampler tried to take. */
    public double errorRate() {
        long errors = this.errors.total();
        return samples + errors == 0 ? 0 : (double) errors / (samples + errors);
    }
}
