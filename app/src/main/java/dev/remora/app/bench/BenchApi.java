package dev.remora.app.bench;

/** What each benchmarked call reads, named after the method of CPython's unwinder that reads the same. */
public enum BenchApi {
    /** Every thread's stack. */
    stack("get_stack_trace"),
    /** The chain of tasks each thread's event loop is running. */
    async("get_async_stack_trace"),
    /** Every asyncio task with its awaiters. */
    awaited("get_all_awaited_by");

    private final String cpythonMethod;

    BenchApi(String cpythonMethod) {
        this.cpythonMethod = cpythonMethod;
    }

    public String cpythonMethod() {
        return cpythonMethod;
    }

    /** Whether calls read asyncio tasks, which only a target running an event loop has. */
    public boolean readsTasks() {
        return this != stack;
    }
}
