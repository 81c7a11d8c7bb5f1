package dev.remora.app.output.asyncio;

import dev.remora.app.output.dump.SourceLines;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.asyncio.AsyncTask;
import dev.remora.domain.asyncio.AsyncThread;
import dev.remora.domain.asyncio.Awaiter;
import dev.remora.domain.asyncio.CoroutineStack;
import dev.remora.domain.model.FrameVariables;
import dev.remora.app.output.dump.VariableLines;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;

import java.io.PrintWriter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Writes an asyncio task graph for people, one tree per thread.
 *
 * <p>All tasks: each tree starts at a task nothing awaits (typically the loop's main task) and
 * branches into the tasks it waits on, so the tree reads like the program's structure of
 * TaskGroups and gathers; under each task its coroutine frames, innermost first. A task several
 * tasks wait on is drawn in full once and referred to afterwards.
 *
 * <p>Running tasks: per thread the task its loop is running, with the thread's frames down to the
 * task's coroutine (most recent call first), then the tree of the tasks waiting on it.
 */
public final class AsyncTextWriter implements AsyncWriter {

    private static final String BRANCH = "├── ";
    private static final String LAST = "└── ";
    private static final String PIPE = "│   ";
    private static final String SPACE = "    ";

    private final Optional<SourceLines> sources;

    /** Without source lines. */
    public AsyncTextWriter() {
        this.sources = Optional.empty();
    }

    /** With the source line under each frame, read as the target sees its files. */
    public AsyncTextWriter(SourceLines sources) {
        this.sources = Optional.of(sources);
    }

    @Override
    public void write(AsyncSnapshot snapshot, PrintWriter out) {
        boolean all = snapshot.mode() == AsyncMode.ALL;
        out.printf("Asyncio %s of PID %d (Python %s)%n", all ? "tasks" : "running tasks", snapshot.pid(),
                snapshot.pythonVersion());
        List<Long> idle = new ArrayList<>();
        for (AsyncThread thread : snapshot.threads()) {
            if (thread.tasks().isEmpty()) {
                if (thread.threadId() != AsyncThread.FALLBACK_LIST) {
                    idle.add(thread.threadId());
                }
                continue;
            }
            out.println();
            if (all) {
                allTasks(thread, out);
            } else {
                runningTask(thread, out);
            }
        }
        if (!all && snapshot.threads().isEmpty()) {
            out.println();
            out.println("No thread is running an asyncio task.");
        }
        if (all && !idle.isEmpty()) {
            out.println();
            out.println("Threads without asyncio tasks: " + String.join(", ", idle.stream().map(String::valueOf).toList()));
        }
        out.flush();
    }

    private void allTasks(AsyncThread thread, PrintWriter out) {
        int count = thread.tasks().size();
        out.printf(thread.threadId() == AsyncThread.FALLBACK_LIST
                ? "Tasks whose thread has gone (the interpreter's fallback list, %2$d task%3$s):%n"
                : "Thread %d (%d task%s):%n", thread.threadId(), count, count == 1 ? "" : "s");
        Map<Long, AsyncTask> byId = byId(thread);
        // Edges point from a waiting task to the tasks it waits on.
        Map<Long, List<AsyncTask>> awaits = new LinkedHashMap<>();
        List<AsyncTask> roots = new ArrayList<>();
        for (AsyncTask task : thread.tasks()) {
            boolean awaited = false;
            for (Awaiter a : task.awaitedBy()) {
                if (byId.containsKey(a.taskId())) {
                    awaits.computeIfAbsent(a.taskId(), id -> new ArrayList<>()).add(task);
                    awaited = true;
                }
            }
            if (!awaited) {
                roots.add(task);
            }
        }
        TreeDrawing drawing = new TreeDrawing(out, t -> awaits.getOrDefault(t.taskId(), List.of()), this::frames);
        for (int i = 0; i < roots.size(); i++) {
            drawing.node(roots.get(i), "  ", i == roots.size() - 1);
        }
        // Tasks only reachable through a cycle of waits have no root: draw what is left.
        for (AsyncTask task : thread.tasks()) {
            if (!drawing.drawn(task)) {
                drawing.node(task, "  ", true);
            }
        }
    }

    private void runningTask(AsyncThread thread, PrintWriter out) {
        AsyncTask running = thread.tasks().getFirst();
        out.printf("Thread %d is running task %s (most recent call first):%n", thread.threadId(), label(running));
        if (!running.coroutineStack().isEmpty()) {
            CoroutineStack stack = running.coroutineStack().getFirst();
            for (int f = 0; f < stack.callStack().size(); f++) {
                frameLines(stack.callStack().get(f),
                        stack.variables().isEmpty() ? Optional.empty() : Optional.of(stack.variables().get(f)), "  ", out);
            }
        }
        if (running.awaitedBy().isEmpty()) {
            return;
        }
        Map<Long, AsyncTask> byId = byId(thread);
        out.println("  awaited by:");
        TreeDrawing drawing = new TreeDrawing(out,
                t -> t.awaitedBy().stream().map(a -> byId.get(a.taskId())).filter(Objects::nonNull).toList(), this::frames);
        drawing.markDrawn(running);
        List<AsyncTask> waiters = drawing.children(running);
        for (int i = 0; i < waiters.size(); i++) {
            drawing.node(waiters.get(i), "  ", i == waiters.size() - 1);
        }
    }

    private List<String> frames(AsyncTask task) {
        List<String> lines = new ArrayList<>();
        for (var stack : task.coroutineStack()) {
            for (int f = 0; f < stack.callStack().size(); f++) {
                FrameInfo frame = stack.callStack().get(f);
                lines.add(frameText(frame));
                source(frame).ifPresent(s -> lines.add("    " + s));
                if (!stack.variables().isEmpty()) {
                    lines.addAll(VariableLines.of(stack.variables().get(f)));
                }
            }
        }
        return lines;
    }

    private void frameLines(FrameInfo frame, Optional<FrameVariables> variables, String indent, PrintWriter out) {
        out.println(indent + frameText(frame));
        source(frame).ifPresent(s -> out.println(indent + "    " + s));
        variables.ifPresent(v -> VariableLines.of(v).forEach(line -> out.println(indent + line)));
    }

    private Optional<String> source(FrameInfo frame) {
        SourceLocation at = frame.location();
        return sources.flatMap(s -> s.line(frame.file(), at.line())).filter(s -> !s.isEmpty());
    }

    static String frameText(FrameInfo frame) {
        SourceLocation at = frame.location();
        return at.hasLine() ? "%s (%s:%d)".formatted(frame.function(), frame.file(), at.line())
                : "%s (%s)".formatted(frame.function(), frame.file());
    }

    static String label(AsyncTask task) {
        return "%s (0x%x)".formatted(task.name(), task.taskId());
    }

    private static Map<Long, AsyncTask> byId(AsyncThread thread) {
        Map<Long, AsyncTask> byId = new LinkedHashMap<>();
        thread.tasks().forEach(t -> byId.putIfAbsent(t.taskId(), t));
        return byId;
    }

    /** Draws tasks as a tree with box-drawing branches; each task in full once. */
    private static final class TreeDrawing {

        /** A node still to draw, with the prefix of its line and whether it is its parent's last child. */
        private record Pending(AsyncTask task, String prefix, boolean last) {}

        private final PrintWriter out;
        private final Function<AsyncTask, List<AsyncTask>> children;
        private final Function<AsyncTask, List<String>> body;
        private final Set<Long> drawn = new HashSet<>();

        TreeDrawing(PrintWriter out, Function<AsyncTask, List<AsyncTask>> children, Function<AsyncTask, List<String>> body) {
            this.out = out;
            this.children = children;
            this.body = body;
        }

        boolean drawn(AsyncTask task) {
            return drawn.contains(task.taskId());
        }

        void markDrawn(AsyncTask task) {
            drawn.add(task.taskId());
        }

        List<AsyncTask> children(AsyncTask task) {
            return children.apply(task);
        }

        /** Draws {@code root} and what hangs below it, depth first without recursion: chains can be long. */
        void node(AsyncTask root, String rootPrefix, boolean rootLast) {
            Deque<Pending> stack = new ArrayDeque<>();
            stack.push(new Pending(root, rootPrefix, rootLast));
            while (!stack.isEmpty()) {
                Pending p = stack.pop();
                String branch = p.prefix() + (p.last() ? LAST : BRANCH);
                if (!drawn.add(p.task().taskId())) {
                    out.println(branch + label(p.task()) + " (shown above)");
                    continue;
                }
                out.println(branch + label(p.task()));
                String below = p.prefix() + (p.last() ? SPACE : PIPE);
                List<AsyncTask> kids = children.apply(p.task());
                String bodyPrefix = below + (kids.isEmpty() ? SPACE : PIPE);
                for (String line : body.apply(p.task())) {
                    out.println(bodyPrefix + line);
                }
                for (int i = kids.size() - 1; i >= 0; i--) {
                    stack.push(new Pending(kids.get(i), below, i == kids.size() - 1));
                }
            }
        }
    }
}
