package dev.remora.app.profiling;

/** The state of a running sampler, for progress lines and live statistics. */
public record SamplerProgress(long attempts, long failures, long missed, long elapsedNanos, long recentCallNanos) {

    public double rate() {
        return elapsedNanos <= 0 ? 0 : attempts * 1e9 / elapsedNanos;
    }

    public double errorPercent() {
        return attempts == 0 ? 0 : 100.0 * failures / attempts;
    }
}
