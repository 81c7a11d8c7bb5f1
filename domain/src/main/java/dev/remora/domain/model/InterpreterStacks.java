package dev.remora.domain.model;

import java.util.List;

/**
 * The threads of one interpreter.
 *
 * @param notStarted thread states in the interpreter's list whose thread had not started yet (no OS
 *     thread, no frame): left out of {@code threads}
 */
public record InterpreterStacks(long interpreterId, List<ThreadStack> threads, int notStarted) {
    public InterpreterStacks {
        threads = List.copyOf(threads);
    }
}
