package dev.remora.app.output.asyncio;

import dev.remora.app.output.Json;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.asyncio.AsyncTask;
import dev.remora.domain.asyncio.AsyncThread;
import dev.remora.domain.asyncio.Awaiter;
import dev.remora.domain.asyncio.CoroutineStack;
import dev.remora.domain.model.FrameInfo;

import java.io.PrintWriter;
import java.util.List;

/**
 * Writes an asyncio task graph as one JSON document, shaped like CPython's {@code AwaitedInfo} /
 * {@code TaskInfo} / {@code CoroInfo} structures; the key names are a stable interface:
 * <pre>
 * {"pid", "python_version", "async": {"mode": "all"|"running", "threads": [{"thread_id", "tasks": [
 *   {"task_id", "task_name", "coroutine_stack": [{"task_name", "call_stack": [frame...]}],
 *    "awaited_by": [{"task_name", "call_stack": [frame...]}]}]}]}}
 * </pre>
 * As in CPython, {@code task_name} inside {@code coroutine_stack} and {@code awaited_by} is a task
 * id (the task the frames belong to, or the waiting task), a number; {@code task_name} of a task is
 * its name. Frames are those of {@code dump --format json}.
 */
public final class AsyncJsonWriter implements AsyncWriter {

    @Override
    public void write(AsyncSnapshot snapshot, PrintWriter out) {
        StringBuilder b = new StringBuilder(4096);
        b.append("{\"pid\": ").append(snapshot.pid())
                .append(", \"python_version\": ").append(Json.string(snapshot.pythonVersion().toString()))
                .append(", \"async\": {\"mode\": ").append(Json.string(snapshot.mode().label()))
                .append(", \"threads\": [");
        String sep = "";
        for (AsyncThread thread : snapshot.threads()) {
            b.append(sep).append("{\"thread_id\": ").append(thread.threadId()).append(", \"tasks\": [");
            String taskSep = "";
            for (AsyncTask task : thread.tasks()) {
                b.append(taskSep);
                task(b, task);
                taskSep = ", ";
            }
            b.append("]}");
            sep = ", ";
        }
        b.append("]}}");
        out.println(b);
        out.flush();
    }

    private static void task(StringBuilder b, AsyncTask task) {
        b.append("{\"task_id\": ").append(task.taskId())
                .append(", \"task_name\": ").append(Json.string(task.name()))
                .append(", \"coroutine_stack\": [");
        String sep = "";
        for (CoroutineStack c : task.coroutineStack()) {
            b.append(sep);
            stack(b, c.taskId(), c.callStack());
            sep = ", ";
        }
        b.append("], \"awaited_by\": [");
        sep = "";
        for (Awaiter a : task.awaitedBy()) {
            b.append(sep);
            stack(b, a.taskId(), a.callStack());
            sep = ", ";
        }
        b.append("]}");
    }

    private static void stack(StringBuilder b, long taskId, List<FrameInfo> frames) {
        b.append("{\"task_name\": ").append(taskId).append(", \"call_stack\": ");
        Json.appendFrames(b, frames);
        b.append('}');
    }
}
