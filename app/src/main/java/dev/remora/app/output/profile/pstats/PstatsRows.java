package dev.remora.app.output.profile.pstats;

/** What one pstats key, and so one row of the table, stands for. */
public enum PstatsRows {
    /**
     * A function, named by the line its code starts on, as cProfile keys it: its samples at every line
     * together, so that its cumulative share is the share of samples it was on the stack in.
     */
    FUNCTIONS,
    /**
     * A function at the line being executed, as CPython 3.15's sampling profiler keys it: one function
     * at several lines is several rows. Frames whose code's first line is unknown (read back from a
     * file) are keyed so in either case.
     */
    EXECUTING_LINES
}
