package dev.remora.app.bench;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What one unwinder achieved against the target.
 *
 * @param workNanos time spent inside unwinder calls
 * @param wallNanos time from the first call to the last
 * @param stats cache and read counters, by name
 */
public record BenchResult(String unwinder, long calls, long samples, long failures, long workNanos, long wallNanos,
                          Map<String, Long> stats) {

    public static BenchResult empty(String unwinder) {
        return new BenchResult(unwinder, 0, 0, 0, 0, 0, Map.of());
    }

    /** Both measurements as one: counts, times and counters added. */
    public BenchResult plus(BenchResult other) {
        Map<String, Long> sum = new LinkedHashMap<>(stats);
        other.stats.forEach((k, v) -> sum.merge(k, v, Long::sum));
        return new BenchResult(unwinder, calls + other.calls, samples + other.samples, failures + other.failures,
                workNanos + other.workNanos, wallNanos + other.wallNanos, sum);
    }

    public double avgCallMicros() {
        return calls == 0 ? 0 : workNanos / 1e3 / calls;
    }

    /** Calls per second of time spent in calls. */
    public double workRate() {
        return workNanos == 0 ? 0 : calls * 1e9 / workNanos;
    }

    /** Successful samples per second of wall time. */
    public double sampleRate() {
        return wallNanos == 0 ? 0 : samples * 1e9 / wallNanos;
    }

    public double successRate() {
        return calls == 0 ? 0 : 100.0 * samples / calls;
    }
}
