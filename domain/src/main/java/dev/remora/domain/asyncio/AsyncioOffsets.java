package dev.remora.domain.asyncio;

import dev.remora.domain.InspectionException.CorruptTarget;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.offsets.DebugOffsets;

/**
 * The validated {@code Py_AsyncioModuleDebugOffsets} ({@code _AsyncioDebug}, section
 * {@code AsyncioDebug}): thirteen {@code uint64_t}, the same layout in 3.14 and 3.15. Every offset
 * was checked to fit inside the struct it addresses before use.
 */
record AsyncioOffsets(Task task, InterpreterState interpreter, ThreadState thread) {

    /** Bytes of the struct. */
    static final int SIZE = 13 * 8;

    private static final long MAX_TASK_SIZE = 64 * 1024;
    private static final long MAX_THREAD_STATE_SIZE = 1 << 20;

    /**
     * {@code TaskObj}.
     *
     * @param isTask a {@code char}: false for a plain future in a task list or a waiter set
     * @param awaitedByIsSet a {@code char}: whether {@code awaitedBy} is a set of waiters or one waiter
     * @param node the {@code llist_node} linking the task into its thread's list
     */
    record Task(long size, long name, long awaitedBy, long isTask, long awaitedByIsSet, long coro, long node) {}

    /** @param tasksHead the {@code llist_node} heading the interpreter's fallback task list */
    record InterpreterState(long size, long tasksHead) {}

    /**
     * Offsets into {@code _PyThreadStateImpl}, which extends the {@code PyThreadState} the debug offsets
     * describe.
     */
    record ThreadState(long size, long runningLoop, long runningTask, long tasksHead) {}

    static AsyncioOffsets decode(byte[] raw, DebugOffsets offsets) throws CorruptTarget {
        if (raw.length < SIZE) {
            throw new CorruptTarget("AsyncioDebug: read %d bytes, need %d".formatted(raw.length, SIZE));
        }
        int node = DebugOffsets.LlistNode.SIZE;
        long taskSize = size(raw, 0, "asyncio_task_object", MAX_TASK_SIZE);
        Task task = new Task(taskSize,
                field(raw, 1, "task_name", taskSize, 8),
                field(raw, 2, "task_awaited_by", taskSize, 8),
                field(raw, 3, "task_is_task", taskSize, 1),
                field(raw, 4, "task_awaited_by_is_set", taskSize, 1),
                field(raw, 5, "task_coro", taskSize, 8),
                field(raw, 6, "task_node", taskSize, node));
        // The interpreter and thread offsets index structs the runtime also describes: stay inside both.
        long interpSize = size(raw, 7, "asyncio_interpreter_state", offsets.interpreter().size());
        InterpreterState interpreter = new InterpreterState(interpSize, field(raw, 8, "asyncio_tasks_head", interpSize, node));
        long threadSize = size(raw, 9, "asyncio_thread_state", MAX_THREAD_STATE_SIZE);
        if (threadSize < offsets.thread().size()) {
            throw new CorruptTarget("AsyncioDebug: asyncio_thread_state.size = %d is smaller than a %d-byte thread state"
                    .formatted(threadSize, offsets.thread().size()));
        }
        ThreadState thread = new ThreadState(threadSize,
                field(raw, 10, "asyncio_running_loop", threadSize, 8),
                field(raw, 11, "asyncio_running_task", threadSize, 8),
                field(raw, 12, "asyncio_tasks_head", threadSize, node));
        return new AsyncioOffsets(task, interpreter, thread);
    }

    private static long size(byte[] raw, int index, String struct, long max) throws CorruptTarget {
        long size = Bytes.getLong(raw, index * 8);
        if (size <= 0 || size > max) {
            throw new CorruptTarget("AsyncioDebug: %s.size = %d is out of range (1..%d)".formatted(struct, size, max));
        }
        return size;
    }

    private static long field(byte[] raw, int index, String name, long structSize, int width) throws CorruptTarget {
        long offset = Bytes.getLong(raw, index * 8);
        if (offset < 0 || offset + width > structSize) {
            throw new CorruptTarget("AsyncioDebug: %s = %d does not fit a %d-byte field in a %d-byte struct"
                    .formatted(name, offset, width, structSize));
        }
        return offset;
    }
}
