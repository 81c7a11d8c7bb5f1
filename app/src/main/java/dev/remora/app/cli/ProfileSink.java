package dev.remora.app.cli;

import dev.remora.app.profiling.SamplerProgress;
import dev.remora.domain.profile.Profile;
import dev.remora.ports.ProcessImage;

import java.io.IOException;

/** Where a profiling session's profile goes: an output, or (with --merge) the merge of a process tree. */
interface ProfileSink {

    /** Samples {@code from} to {@code to} were added: formats that stream write them now. */
    void window(Profile profile, int from, int to);

    /** Sampling is over: the whole profile. */
    void write(Profile profile) throws IOException;

    /** Where the target's files can be read while it runs (the heatmap shows their source). */
    default void sourcesFrom(ProcessImage image) {}

    /** How sampling goes, about once a second. */
    default void progress(SamplerProgress live) {}

    /** Whether this sink draws on the terminal itself, so that no progress line may be printed. */
    default boolean ownsTerminal() {
        return false;
    }

    /** Whether the user asked to stop (the live view's q). */
    default boolean stopRequested() {
        return false;
    }

    /** Sampling stopped; the summary comes next, then {@link #write}. */
    default void samplingEnded() {}
}
