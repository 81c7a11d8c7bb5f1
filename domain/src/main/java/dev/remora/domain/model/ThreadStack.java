package dev.remora.domain.model;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One thread's stack, innermost frame first.
 *
 * @param threadId the OS thread id
 * @param problem why the stack may be incomplete, when the walk could not finish
 */
public record ThreadStack(long threadId, Set<ThreadStatus> status, List<FrameInfo> frames,
                          Optional<String> problem) {
    public ThreadStack {
        status = Set.copyOf(status);
        frames = List.copyOf(frames);
    }
}
