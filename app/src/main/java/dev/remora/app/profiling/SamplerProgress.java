package dev.remora.app.profiling;

import dev.remora.domain.profile.StackErrors;

/**
 * The state of a running sampler, for progress lines and live statistics.
 *
 * @param ticks walks started
 * @param samples thread stacks read whole
 * @param errors thread ticks (or whole ticks) that gave no complete stack, by reason
 */
public record SamplerProgress(long ticks, long samples, StackErrors errors, long missed, long elapsedNanos, long recentCallNanos) {

    public double rate() {
        return elapsedNanos <= 0 ? 0 : ticks * 1e9 / elapsedNanos;
    }

    public double errorPercent() {
        long failed = errors.total();
        return samples + failed == 0 ? 0 : 100.0 * failed / (samples + failed);
    }
}
