package dev.remora.domain.nativestack;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A thread's C frames and Python frames in call order, innermost first.
 *
 * @param problem why the stack is incomplete or its two parts could not be put in order (then the
 *     C frames come first and the Python frames after them, as read)
 * @param hidden how many interpreter-internal C frames were left out
 */
public record MixedStack(List<StackEntry> entries, Optional<String> problem, int hidden) {

    public MixedStack {
        entries = List.copyOf(entries);
        Objects.requireNonNull(problem);
    }
}
