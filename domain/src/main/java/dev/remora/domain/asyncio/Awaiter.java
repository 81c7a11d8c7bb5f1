package dev.remora.domain.asyncio;

import dev.remora.domain.model.FrameInfo;

import java.util.List;

/**
 * A task waiting on another ({@code CoroInfo} in {@code TaskInfo.awaited_by}).
 *
 * @param taskId the waiting task's address: its {@link AsyncTask#taskId()}
 * @param callStack the waiting task's coroutine frames, innermost first; empty when the waiter is a
 *     future rather than a task
 */
public record Awaiter(long taskId, List<FrameInfo> callStack) {

    public Awaiter {
        callStack = List.copyOf(callStack);
    }
}
