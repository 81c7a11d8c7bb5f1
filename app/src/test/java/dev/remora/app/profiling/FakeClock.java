package dev.remora.app.profiling;

/** Time in nanoseconds that moves only when the sampler sleeps or a fake target's walk moves it. */
final class FakeClock implements Sampler.Clock {

    /** How late a sleep wakes: Linux's timer slack makes a real one some 60 µs late. */
    private final long lateWakeNanos;
    long now;

    FakeClock(long lateWakeNanos) {
        this.lateWakeNanos = lateWakeNanos;
    }

    @Override
    public long nanoTime() {
        return now;
    }

    @Override
    public void parkNanos(long nanos) {
        now += nanos + lateWakeNanos;
    }
}
