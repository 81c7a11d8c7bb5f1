package dev.remora.domain.asyncio;

import dev.remora.domain.threads.Interpreters;
import dev.remora.domain.threads.Interpreters.ThreadRef;
import dev.remora.domain.locals.FrameVariablesReader;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.ports.MemoryAccessException;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * One pass over the target's tasks, building the threads of an {@link AsyncSnapshot}. Every task is
 * read at most once per pass, however many tasks refer to it.
 */
final class GraphReading {

    /** Far more tasks than one thread's waiters reach in practice; more is garbage. */
    static final int MAX_WAITER_TASKS = 1 << 20;

    private final AsyncContext context;
    private final TaskReader tasks;
    private final TaskNames names;
    private final CoroutineChain chains;
    private final RunningFrames running;
    private final Map<Long, List<LocatedFrame>> chainOf = new HashMap<>();
    /** Reads each task frame's variables; absent when they were not asked for. */
    private final Optional<FrameVariablesReader> variables;

    GraphReading(AsyncContext context, TypeFacts types, Optional<FrameVariablesReader> variables) {
        this.context = context;
        this.variables = variables;
        this.tasks = new TaskReader(context);
        this.names = new TaskNames(context, types);
        this.chains = new CoroutineChain(context, types);
        this.running = new RunningFrames(context);
    }

    /**
     * Each thread's task list, then the interpreters' fallback lists as thread 0. A task being torn
     * down (its fields already cleared, not yet off its list) is left out: it is no longer a task.
     */
    List<AsyncThread> all(Interpreters.Listing listing)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        List<AsyncThread> threads = new ArrayList<>();
        for (ThreadRef t : listing.threads()) {
            long head = t.address() + context.asyncio().thread().tasksHead();
            threads.add(new AsyncThread(t.nativeId(), describeAll(t.interpreter(), TaskList.tasks(context, head))));
        }
        List<AsyncTask> orphans = new ArrayList<>();
        for (long interp : listing.interpreters()) {
            long head = interp + context.asyncio().interpreter().tasksHead();
            orphans.addAll(describeAll(interp, TaskList.tasks(context, head)));
        }
        threads.add(new AsyncThread(AsyncThread.FALLBACK_LIST, orphans));
        return threads;
    }

    /** Threads whose event loop is running a task: that task, then everything waiting on it. */
    List<AsyncThread> running(Interpreters.Listing listing)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        List<AsyncThread> threads = new ArrayList<>();
        AsyncioOffsets.ThreadState ts = context.asyncio().thread();
        for (ThreadRef t : listing.threads()) {
            if (context.reader().readLong(t.address() + ts.runningLoop()) == 0) {
                continue;
            }
            long task = context.reader().readLong(t.address() + ts.runningTask());
            if (task != 0) {
                List<AsyncTask> chain = runningChain(t, task);
                // The loop may have moved on to another task while the chain was read.
                if (context.reader().readLong(t.address() + ts.runningTask()) != task) {
                    throw new InconsistentGraph("thread %d switched tasks during the reading".formatted(t.nativeId()));
                }
                threads.add(new AsyncThread(t.nativeId(), chain));
            }
        }
        return threads;
    }

    /**
     * The running task with the thread's frames down to its coroutine, then the tasks waiting on it,
     * nearest first (breadth first, each waiter set in table order, as CPython lists them), each
     * task once: CPython would list a task reached along two paths twice, and loop on a cycle.
     */
    private List<AsyncTask> runningChain(ThreadRef thread, long runningTask)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        TaskView view = tasks.task(runningTask);
        // A task that has just finished is off its list but still running its last step: it is shown.
        if (!view.isTask() || view.coro() == 0 || view.tornDown()) {
            throw new InconsistentGraph("running task 0x%x is not a live task".formatted(runningTask));
        }
        List<LocatedFrame> frames = running.frames(thread.interpreter(), thread.address(),
                view.coro() + context.generator().iframe());
        List<AsyncTask> out = new ArrayList<>();
        out.add(new AsyncTask(runningTask, name(view), List.of(stack(runningTask, frames)),
                awaiters(thread.interpreter(), view)));
        if (tasks.goneSince(view)) {
            throw new InconsistentGraph("running task 0x%x finished while it was read".formatted(runningTask));
        }
        Set<Long> shown = new HashSet<>(List.of(runningTask));
        Deque<Long> pending = new ArrayDeque<>();
        waitersOf(out.getFirst(), pending);
        while (!pending.isEmpty()) {
            long waiter = pending.removeFirst();
            if (!shown.add(waiter)) {
                continue;
            }
            if (shown.size() > MAX_WAITER_TASKS || pending.size() > MAX_WAITER_TASKS) {
                throw new InconsistentGraph("more than %d tasks wait on task 0x%x".formatted(MAX_WAITER_TASKS, runningTask));
            }
            TaskView waiting = tasks.task(waiter);
            // A future among the waiters stays an awaiter without frames; only tasks are listed.
            if (waiting.isTask() && !waiting.tornDown()) {
                Optional<AsyncTask> described = describeUnlessTornDown(thread.interpreter(), waiting);
                if (described.isPresent()) {
                    out.add(described.get());
                    waitersOf(described.get(), pending);
                }
            }
        }
        return out;
    }

    /** Queues the tasks a described task listed as its awaiters, without reading its waiters again. */
    private static void waitersOf(AsyncTask task, Deque<Long> pending) {
        for (Awaiter awaiter : task.awaitedBy()) {
            pending.addLast(awaiter.taskId());
        }
    }

    private List<AsyncTask> describeAll(long interpreter, List<Long> addresses)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        List<AsyncTask> out = new ArrayList<>(addresses.size());
        for (long address : addresses) {
            TaskView view = tasks.task(address);
            if (!view.isTask()) {
                throw new InconsistentGraph("object 0x%x on a task list is not a task".formatted(address));
            }
            if (!view.tornDown()) {
                describeUnlessTornDown(interpreter, view).ifPresent(out::add);
            }
        }
        return out;
    }

    /**
     * The task, or nothing when it was torn down while it was being read (the collector clears a
     * task's fields before it leaves its list, and its name and coroutine are freed after): a
     * churning loop always has some, they are no longer tasks to show, and what was read of them
     * may be garbage that happens to decode. The task is checked again after it was read; a
     * failure to read a task that is still there fails the reading.
     */
    private Optional<AsyncTask> describeUnlessTornDown(long interpreter, TaskView view)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        AsyncTask task;
        try {
            task = describe(interpreter, view);
        } catch (MalformedObjectException | InconsistentGraph | MemoryAccessException.Unmapped e) {
            if (tasks.goneSince(view)) {
                return Optional.empty();
            }
            throw e;
        }
        return tasks.goneSince(view) ? Optional.empty() : Optional.of(task);
    }

    private AsyncTask describe(long interpreter, TaskView view)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        return new AsyncTask(view.address(), name(view),
                List.of(stack(view.address(), chain(interpreter, view))), awaiters(interpreter, view));
    }

    /** A task's frames, with their variables when they are asked for. */
    private CoroutineStack stack(long taskId, List<LocatedFrame> frames) {
        List<FrameInfo> callStack = frames.stream().map(LocatedFrame::frame).toList();
        if (variables.isEmpty()) {
            return new CoroutineStack(taskId, callStack);
        }
        return new CoroutineStack(taskId, callStack,
                frames.stream().map(f -> variables.get().read(f.frameAddress(), f.codeAddress())).toList());
    }

    private List<Awaiter> awaiters(long interpreter, TaskView view)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        List<Awaiter> out = new ArrayList<>();
        for (long waiter : tasks.waiters(view)) {
            // A waiter may have finished, and so be on no list any more: it is still shown.
            out.add(new Awaiter(waiter, chain(interpreter, tasks.task(waiter)).stream().map(LocatedFrame::frame).toList()));
        }
        return out;
    }

    /** A task's coroutine frames; none for a future, which has no coroutine. */
    private List<LocatedFrame> chain(long interpreter, TaskView view)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        if (!view.isTask()) {
            return List.of();
        }
        List<LocatedFrame> known = chainOf.get(view.address());
        if (known == null) {
            known = chains.frames(interpreter, view.coro());
            chainOf.put(view.address(), known);
        }
        return known;
    }

    private String name(TaskView view) throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        return names.read(view.name());
    }
}
