package dev.remora.domain.model;

import java.util.List;

/** The threads of one interpreter. */
public record InterpreterStacks(long interpreterId, List<ThreadStack> threads) {
    public InterpreterStacks {
        threads = List.copyOf(threads);
    }
}
