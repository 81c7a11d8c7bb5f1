package dev.remora.app.output.asyncio;

import dev.remora.app.output.json.JsonFrames;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.asyncio.AsyncTask;
import dev.remora.domain.asyncio.AsyncThread;
import dev.remora.domain.asyncio.Awaiter;
import dev.remora.domain.asyncio.CoroutineStack;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.FrameVariables;

import java.io.IOException;
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
        out.println(JsonWriter.text(json -> {
            json.beginObject()
                    .name("pid").value(snapshot.pid())
                    .name("python_version").value(snapshot.pythonVersion().toString())
                    .name("async").beginObject()
                    .name("mode").value(snapshot.mode().label())
                    .name("threads").beginArray();
            for (AsyncThread thread : snapshot.threads()) {
                json.beginObject().name("thread_id").value(thread.threadId()).name("tasks").beginArray();
                for (AsyncTask task : thread.tasks()) {
                    task(json, task);
                }
                json.endArray().endObject();
            }
            json.endArray().endObject().endObject();
        }));
        out.flush();
    }

    private static void task(JsonWriter json, AsyncTask task) throws IOException {
        json.beginObject()
                .name("task_id").value(task.taskId())
                .name("task_name").value(task.name())
                .name("coroutine_stack").beginArray();
        for (CoroutineStack c : task.coroutineStack()) {
            stack(json, c.taskId(), c.callStack(), c.variables());
        }
        json.endArray().name("awaited_by").beginArray();
        for (Awaiter a : task.awaitedBy()) {
            stack(json, a.taskId(), a.callStack(), List.of());
        }
        json.endArray().endObject();
    }

    private static void stack(JsonWriter json, long taskId, List<FrameInfo> frames, List<FrameVariables> variables)
            throws IOException {
        json.beginObject().name("task_name").value(taskId).name("call_stack");
        JsonFrames.write(json, frames, variables);
        json.endObject();
    }
}
