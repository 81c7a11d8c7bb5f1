package dev.remora.domain.nativestack;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread's C frames, innermost first.
 *
 * @param incomplete why the walk stopped before the outermost frame; empty when it reached it (a
 *     return address of 0, or a frame whose unwind rules mark the return address undefined, as
 *     glibc's {@code _start} and {@code clone3} do)
 */
public record NativeStack(List<NativeFrame> frames, Optional<String> incomplete) {

    public NativeStack {
        frames = List.copyOf(frames);
        Objects.requireNonNull(incomplete);
    }
}
