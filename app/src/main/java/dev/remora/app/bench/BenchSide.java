package dev.remora.app.bench;

/** One unwinder under measurement, measured in slices that add up to its result. */
public interface BenchSide extends AutoCloseable {

    /** Calls the unwinder back to back for about this long. */
    void measure(long nanos) throws Exception;

    /** Calls it for about this long without counting: caches filled, code compiled, before measuring. */
    void warmUp(long nanos) throws Exception;

    /** What all slices so far achieved. */
    BenchResult result();

    @Override
    void close();
}
