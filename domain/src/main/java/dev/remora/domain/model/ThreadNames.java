package dev.remora.domain.model;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The names the target's {@code threading} module gives its threads, by OS thread id.
 *
 * @param problems why some interpreter's names could not be read (its threads then have none here)
 */
public record ThreadNames(Map<Long, String> byThreadId, List<String> problems) {

    public static final ThreadNames NONE = new ThreadNames(Map.of(), List.of());

    public ThreadNames {
        byThreadId = Map.copyOf(byThreadId);
        problems = List.copyOf(problems);
    }

    public Optional<String> of(long threadId) {
        return Optional.ofNullable(byThreadId.get(threadId));
    }
}
