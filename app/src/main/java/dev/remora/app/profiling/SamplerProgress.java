package dev.remora.app.profiling;

/**
 * The state of a running sampler, for progress lines and live statistics.
 *
 * @param ticks walks started
 * @param samples thread stacks read whole
 * @param errors thread ticks (or whole ticks) that gave no complete stack
 */
public record SamplerProgress(long ticks, long samples, long errors, long missed, long elapsedNanos, long recentCallNanos) {

    public double rate() {
        return elapsedNanos <= 0 ? 0 : ticks * 1e9 / elapsedNanos;
    }

    public double errorPercent() {
        return samples + errors == 0 ? 0 : 100.0 * errors / (samples + errors);
    }
}
