package dev.remora.app.asyncio;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.asyncio.AsyncTask;
import dev.remora.domain.asyncio.AsyncThread;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A task graph in a form both Remora's snapshot and CPython's JSON convert to, so they compare
 * with equals. Frames keep only what the reference reports: CPython 3.14 gives a line and no
 * columns, so a comparison with 3.14 drops Remora's end line and columns.
 */
record GraphView(List<ThreadView> threads) {

    record ThreadView(long threadId, List<TaskView> tasks) {}

    record TaskView(long taskId, String name, List<StackView> coroutineStack, List<StackView> awaitedBy) {}

    record StackView(long taskId, List<FrameView> frames) {}

    record FrameView(String function, String file, Integer line, Integer endLine, Integer column, Integer endColumn) {}

    static GraphView of(AsyncSnapshot snapshot, boolean fullLocations) {
        List<ThreadView> threads = new ArrayList<>();
        for (AsyncThread t : snapshot.threads()) {
            List<TaskView> tasks = new ArrayList<>();
            for (AsyncTask task : t.tasks()) {
                tasks.add(new TaskView(task.taskId(), task.name(),
                        task.coroutineStack().stream().map(c -> new StackView(c.taskId(), frames(c.callStack(), fullLocations))).toList(),
                        task.awaitedBy().stream().map(a -> new StackView(a.taskId(), frames(a.callStack(), fullLocations))).toList()));
            }
            threads.add(new ThreadView(t.threadId(), tasks));
        }
        return new GraphView(threads);
    }

    /** The JSON asyncio_reference.py prints. */
    static GraphView ofCpython(JsonNode root, boolean fullLocations) {
        List<ThreadView> threads = new ArrayList<>();
        for (JsonNode t : root.get("threads")) {
            List<TaskView> tasks = new ArrayList<>();
            for (JsonNode task : t.get("tasks")) {
                tasks.add(new TaskView(task.get("task_id").asLong(), task.get("task_name").asText(),
                        stacks(task.get("coroutine_stack"), fullLocations), stacks(task.get("awaited_by"), fullLocations)));
            }
            threads.add(new ThreadView(t.get("thread_id").asLong(), tasks));
        }
        return new GraphView(threads);
    }

    /** The same graph with task names replaced where {@code names} knows the task. */
    GraphView renamed(Map<Long, String> names) {
        return map(t -> new TaskView(t.taskId(), names.getOrDefault(t.taskId(), t.name()), t.coroutineStack(), t.awaitedBy()));
    }

    /** Only the threads with these ids, in this graph's order. */
    GraphView onlyThreads(List<Long> ids) {
        return new GraphView(threads.stream().filter(t -> ids.contains(t.threadId())).toList());
    }

    List<Long> threadIds() {
        return threads.stream().map(ThreadView::threadId).toList();
    }

    private GraphView map(Function<TaskView, TaskView> f) {
        return new GraphView(threads.stream().map(t -> new ThreadView(t.threadId(), t.tasks().stream().map(f).toList())).toList());
    }

    private static List<StackView> stacks(JsonNode array, boolean fullLocations) {
        List<StackView> out = new ArrayList<>();
        for (JsonNode c : array) {
            List<FrameView> frames = new ArrayList<>();
            for (JsonNode f : c.get("call_stack")) {
                frames.add(new FrameView(f.get("function").asText(), f.get("file").asText(), integer(f, "line"),
                        fullLocations ? integer(f, "end_line") : null, fullLocations ? integer(f, "column") : null,
                        fullLocations ? integer(f, "end_column") : null));
            }
            out.add(new StackView(c.get("task_name").asLong(), frames));
        }
        return out;
    }

    private static Integer integer(JsonNode node, String key) {
        JsonNode v = node.get(key);
        if (v == null) {
            throw new IllegalStateException("no \"" + key + "\" in " + node);
        }
        return v.isNull() ? null : v.intValue();
    }

    private static List<FrameView> frames(List<FrameInfo> frames, boolean fullLocations) {
        return frames.stream().map(f -> {
            SourceLocation l = f.location();
            return new FrameView(f.function(), f.file(), nullable(l.line()),
                    fullLocations ? nullable(l.endLine()) : null, fullLocations ? nullable(l.column()) : null,
                    fullLocations ? nullable(l.endColumn()) : null);
        }).toList();
    }

    private static Integer nullable(int value) {
        return value == SourceLocation.ABSENT ? null : value;
    }
}
