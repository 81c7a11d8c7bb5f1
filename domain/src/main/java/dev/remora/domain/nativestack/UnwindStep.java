package dev.remora.domain.nativestack;

/** What one step of a walk found about a frame: where its stack area ends, and whether the walk goes on. */
sealed interface UnwindStep {

    long cfa();

    /** The caller's registers are recovered; the walk goes on. */
    record Continue(long cfa, boolean signalFrame) implements UnwindStep {}

    /** This is the outermost frame. */
    record Outermost(long cfa) implements UnwindStep {}

    /** The caller cannot be found, for the reason given. */
    record Stop(long cfa, String reason) implements UnwindStep {}
}
