package dev.remora.domain.asyncio;

/** Which part of a target's asyncio task graph to read. */
public enum AsyncMode {
    /**
     * Every task of every thread, with its coroutine stack and the tasks awaiting it, as CPython's
     * {@code RemoteUnwinder.get_all_awaited_by()} reads them.
     */
    ALL("all"),
    /**
     * For each thread whose event loop is running a task: the thread's frames down to that task's
     * coroutine, then every task waiting on it, as {@code RemoteUnwinder.get_async_stack_trace()}.
     */
    RUNNING("running");

    private final String label;

    AsyncMode(String label) {
        this.label = label;
    }

    /** The name users and the JSON output know the mode by. */
    public String label() {
        return label;
    }
}
