package dev.remora.domain.asyncio;

/**
 * The fields of one {@code TaskObj} the graph uses, read in one go.
 *
 * @param isTask false for a plain future (it has no coroutine, and CPython reports no frames for it)
 * @param coro the task's coroutine, 0 once the task is done
 * @param awaitedBy 0, one waiting task, or a set of them ({@code awaitedByIsSet})
 */
record TaskView(long address, boolean isTask, long name, long coro, long awaitedBy, boolean awaitedByIsSet) {

    /**
     * A task whose fields were cleared (the collector's {@code tp_clear}, or deallocation) while it
     * is still on its list: every task has a name from its creation until then.
     */
    boolean tornDown() {
        return isTask && name == 0;
    }
}
