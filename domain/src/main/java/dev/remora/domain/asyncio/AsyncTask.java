package dev.remora.domain.asyncio;

import java.util.List;

/**
 * One asyncio task ({@code TaskInfo}).
 *
 * @param taskId the task object's address in the target, which other tasks use to refer to it
 * @param name {@code task.get_name()}
 * @param coroutineStack the task's coroutines, innermost first (one entry: CPython's shape). In
 *     {@link AsyncMode#RUNNING} the running task's entry holds its thread's frames instead, from the
 *     innermost one to the task's own coroutine (the whole stack while the task's step runs outside
 *     its coroutine).
 * @param awaitedBy the tasks waiting on this one (through {@code gather}, {@code TaskGroup},
 *     {@code shield} and the like), each with its coroutine stack
 */
public record AsyncTask(long taskId, String name, List<CoroutineStack> coroutineStack, List<Awaiter> awaitedBy) {

    public AsyncTask {
        coroutineStack = List.copyOf(coroutineStack);
        awaitedBy = List.copyOf(awaitedBy);
    }
}
