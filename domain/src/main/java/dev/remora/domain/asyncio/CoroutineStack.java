package dev.remora.domain.asyncio;

import dev.remora.domain.model.FrameInfo;

import java.util.List;

/**
 * The coroutine frames of one task ({@code CoroInfo}), innermost first.
 *
 * @param taskId the address of the task they belong to (CPython's {@code CoroInfo.task_name})
 */
public record CoroutineStack(long taskId, List<FrameInfo> callStack) {

    public CoroutineStack {
        callStack = List.copyOf(callStack);
    }
}
