package dev.remora.domain.asyncio;

import dev.remora.domain.memory.ChainGuard;
import dev.remora.ports.MemoryAccessException;

import java.util.ArrayList;
import java.util.List;

/**
 * The tasks on one of CPython's circular {@code llist}s of tasks (a thread's, or an interpreter's
 * fallback list): from the head's {@code next} round to the head again, each node embedded in its
 * task at {@code task_node}.
 */
final class TaskList {

    /** Far more tasks than one list holds in practice; a longer list is garbage. */
    static final int MAX_TASKS = 1 << 20;

    private TaskList() {}

    static List<Long> tasks(AsyncContext c, long head) throws MemoryAccessException, InconsistentGraph {
        long nextField = c.llistNode().next();
        long nodeInTask = c.asyncio().task().node();
        List<Long> tasks = new ArrayList<>();
        ChainGuard guard = new ChainGuard(MAX_TASKS, head);
        for (long node = c.reader().readLong(head + nextField); node != head; node = c.reader().readLong(node + nextField)) {
            if (!AsyncContext.plausiblePointer(node)) {
                throw new InconsistentGraph("task list at 0x%x has a bad node pointer 0x%x".formatted(head, node));
            }
            if (!guard.step(node)) {
                throw new InconsistentGraph(guard.tooLong()
                        ? "task list at 0x%x is longer than %d tasks".formatted(head, MAX_TASKS)
                        : "task list at 0x%x loops".formatted(head));
            }
            tasks.add(node - nodeInTask);
        }
        return tasks;
    }
}
