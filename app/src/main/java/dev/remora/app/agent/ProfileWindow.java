package dev.remora.app.agent;

import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.StackErrors;

/**
 * One process's profile over one upload window, encoded once for every sink.
 *
 * @param fromMillis the window's start, Unix milliseconds
 * @param untilMillis its end
 * @param pprof the gzipped profile.proto
 * @param samples the samples in it
 * @param errors the stacks of it not read whole, by reason
 */
public record ProfileWindow(int pid, ProcessLabels labels, ProfileMode mode, long rateHz, long fromMillis, long untilMillis,
                            byte[] pprof, long samples, StackErrors errors) {

    /** What the window holds in a queue. */
    public long bytes() {
        return pprof.length + 256L;
    }
}
