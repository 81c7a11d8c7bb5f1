package dev.remora.app.agent;

import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.StackErrors;

import java.util.EnumMap;
import java.util.Map;

/**
 * One process's profile over one upload window, encoded once in each format a sink sends.
 *
 * @param fromMillis the window's start, Unix milliseconds
 * @param untilMillis its end
 * @param samples the samples in it
 * @param errors the stacks of it not read whole, by reason
 */
public record ProfileWindow(int pid, ProcessLabels labels, ProfileMode mode, long rateHz, long fromMillis, long untilMillis,
                            Map<WireFormat, byte[]> bodies, long samples, StackErrors errors) {

    public ProfileWindow {
        bodies = new EnumMap<>(bodies);
    }

    /** The window in {@code format}; the packer encoded every format a sink sends. */
    public byte[] body(WireFormat format) {
        byte[] body = bodies.get(format);
        if (body == null) {
            throw new IllegalStateException("window not encoded as " + format);
        }
        return body;
    }

    /** What the window holds in a queue. */
    public long bytes() {
        long total = 256;
        for (byte[] body : bodies.values()) {
            total += body.length;
        }
        return total;
    }
}
