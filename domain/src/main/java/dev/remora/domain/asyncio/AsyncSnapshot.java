package dev.remora.domain.asyncio;

import dev.remora.domain.offsets.PythonVersion;

import java.util.List;

/**
 * One reading of a target's asyncio tasks, shaped like CPython's {@code AwaitedInfo} list.
 *
 * @param threads in {@link AsyncMode#ALL}, every thread of every interpreter (newest first, those
 *     without tasks too), then thread id 0: the interpreters' fallback task lists, which hold tasks
 *     whose thread has gone; in {@link AsyncMode#RUNNING}, the threads whose loop is running a task
 */
public record AsyncSnapshot(int pid, PythonVersion pythonVersion, AsyncMode mode, List<AsyncThread> threads) {

    public AsyncSnapshot {
        threads = List.copyOf(threads);
    }
}
