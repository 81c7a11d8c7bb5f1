package dev.remora.domain.asyncio;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.StackVisitor;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns an async snapshot into stacks a profile can count: a task's coroutine frames, then a frame
 * naming the task (the task boundary), then the frames of the task awaiting it, and so on up the
 * chain of first awaiters. In {@link AsyncMode#RUNNING} each thread gives one stack, from its running
 * task; in {@link AsyncMode#ALL} every task gives one.
 */
public final class TaskStacks {

    /** Bounds a chain read from the target, which may loop. */
    private static final int MAX_CHAIN = 1024;

    private TaskStacks() {}

    /** Boundary frames by task name, so each sample reuses one object per task (bounded). */
    private static final int MAX_BOUNDARIES = 1 << 14;
    private static final Map<String, FrameInfo> BOUNDARIES = new java.util.concurrent.ConcurrentHashMap<>();

    /** The frame that marks where one task's frames end and its awaiter's begin. */
    public static FrameInfo boundary(String taskName) {
        FrameInfo known = BOUNDARIES.get(taskName);
        if (known == null) {
            known = new FrameInfo("<task " + taskName + ">", "~", SourceLocation.NONE);
            if (BOUNDARIES.size() < MAX_BOUNDARIES) {
                BOUNDARIES.put(taskName, known);
            }
        }
        return known;
    }

    public static void feed(AsyncSnapshot snapshot, StackVisitor visitor) {
        for (AsyncThread thread : snapshot.threads()) {
            Map<Long, AsyncTask> byId = new HashMap<>();
            thread.tasks().forEach(t -> byId.put(t.taskId(), t));
            for (AsyncTask task : thread.tasks()) {
                if (!visitor.beginThread(0, thread.threadId(), 0)) {
                    continue;
                }
                chain(task, byId, visitor);
                visitor.endThread(Optional.empty());
                if (snapshot.mode() == AsyncMode.RUNNING) {
                    break; // the running task comes first; the others are its awaiters, already in its chain
                }
            }
        }
    }

    private static void chain(AsyncTask first, Map<Long, AsyncTask> byId, StackVisitor visitor) {
        Set<Long> seen = new HashSet<>();
        AsyncTask task = first;
        while (task != null && seen.add(task.taskId()) && seen.size() <= MAX_CHAIN) {
            for (CoroutineStack coroutine : task.coroutineStack()) {
                coroutine.callStack().forEach(visitor::frame);
            }
            visitor.frame(boundary(task.name()));
            task = task.awaitedBy().isEmpty() ? null : byId.get(task.awaitedBy().getFirst().taskId());
        }
    }
}
