package dev.remora.app.profiling;

import dev.remora.adapters.vmreadv.ThreadScheduling;

/**
 * {@link SamplerPriority.Level#PROMPT} as the lowest real-time priority, where the system allows it
 * (root, CAP_SYS_NICE or an RLIMIT_RTPRIO). Once refused it stops asking: the answer will not change.
 */
public final class RealtimeWakeups implements SamplerPriority {

    private boolean refused;

    @Override
    public void set(Level level) {
        switch (level) {
            case PROMPT -> {
                if (!refused) {
                    refused = ThreadScheduling.realtime() != ThreadScheduling.Outcome.APPLIED;
                }
            }
            case NORMAL -> {
                if (!refused) {
                    ThreadScheduling.normal();
                }
            }
        }
    }
}
