package dev.remora.domain.model;

import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * One thread's stack, innermost frame first.
 *
 * @param threadId the OS thread id
 * @param problem why the stack may be incomplete, when the walk could not finish
 * @param variables each frame's variables, in the order of {@code frames}, when they were asked for;
 *     empty otherwise
 * @param name the thread's name as the target's {@code threading} module gives it, where it has one
 */
public record ThreadStack(long threadId, Set<ThreadStatus> status, List<FrameInfo> frames,
                          Optional<String> problem, List<FrameVariables> variables, Optional<String> name) {
    public ThreadStack {
        status = Set.copyOf(status);
        frames = List.copyOf(frames);
        variables = List.copyOf(variables);
        if (!variables.isEmpty() && variables.size() != frames.size()) {
            throw new IllegalArgumentException("%d frames, variables of %d".formatted(frames.size(), variables.size()));
        }
    }

    /** A stack without a name. */
    public ThreadStack(long threadId, Set<ThreadStatus> status, List<FrameInfo> frames, Optional<String> problem,
                       List<FrameVariables> variables) {
        this(threadId, status, frames, problem, variables, Optional.empty());
    }

    /** A stack without variables or a name. */
    public ThreadStack(long threadId, Set<ThreadStatus> status, List<FrameInfo> frames, Optional<String> problem) {
        this(threadId, status, frames, problem, List.of());
    }

    public ThreadStack named(Optional<String> threadName) {
        return new ThreadStack(threadId, status, frames, problem, variables, threadName);
    }
}
