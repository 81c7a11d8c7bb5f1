package dev.remora.domain.asyncio;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.FrameVariables;

import java.util.List;

/**
 * The coroutine frames of one task ({@code CoroInfo}), innermost first.
 *
 * @param taskId the address of the task they belong to (CPython's {@code CoroInfo.task_name})
 * @param variables each frame's variables, in the order of {@code callStack}, when they were asked
 *     for; empty otherwise
 */
public record CoroutineStack(long taskId, List<FrameInfo> callStack, List<FrameVariables> variables) {

    public CoroutineStack {
        callStack = List.copyOf(callStack);
        variables = List.copyOf(variables);
        if (!variables.isEmpty() && variables.size() != callStack.size()) {
            throw new IllegalArgumentException("%d frames, variables of %d".formatted(callStack.size(), variables.size()));
        }
    }

    /** A stack without variables. */
    public CoroutineStack(long taskId, List<FrameInfo> callStack) {
        this(taskId, callStack, List.of());
    }
}
