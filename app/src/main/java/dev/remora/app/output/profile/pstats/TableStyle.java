package dev.remora.app.output.profile.pstats;

/** How the pstats table reads. */
public enum TableStyle {
    /**
     * One time unit for the whole table, shown to the precision the sampling interval gives, and a
     * summary that speaks of samples and ranks hot spots by them.
     */
    REMORA,
    /**
     * CPython 3.15's sampling profiler's text exactly: each time column in its own unit with three
     * decimals, and its summary's wording and order, so that the two can be compared line by line.
     */
    CPYTHON
}
