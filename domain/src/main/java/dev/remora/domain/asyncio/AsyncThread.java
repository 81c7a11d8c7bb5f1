package dev.remora.domain.asyncio;

import java.util.List;

/**
 * The tasks of one thread ({@code AwaitedInfo}).
 *
 * @param threadId the OS thread id ({@code threading.get_native_id()}), or 0 for the tasks left on the
 *     interpreter's fallback list
 */
public record AsyncThread(long threadId, List<AsyncTask> tasks) {

    /** The thread id of the interpreter-level fallback list. */
    public static final long FALLBACK_LIST = 0;

    public AsyncThread {
        tasks = List.copyOf(tasks);
    }
}
