package dev.remora.app.output.dump;

import dev.remora.app.output.json.JsonFrames;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.model.ThreadStatus;

import java.io.IOException;
import java.io.PrintWriter;

/** Writes a stack dump as one JSON document; the key names are a stable interface for other tools. */
public final class JsonDumpWriter implements DumpWriter {

    @Override
    public void write(ProcessStacks stacks, PrintWriter out) {
        out.println(JsonWriter.text(json -> {
            json.beginObject()
                    .name("pid").value(stacks.pid())
                    .name("python_version").value(stacks.pythonVersion().toString())
                    .name("backend").value(stacks.backend())
                    .name("interpreters").beginArray();
            for (InterpreterStacks interp : stacks.interpreters()) {
                json.beginObject().name("interpreter_id").value(interp.interpreterId()).name("threads").beginArray();
                for (ThreadStack thread : interp.threads()) {
                    thread(json, thread);
                }
                json.endArray();
                if (interp.notStarted() > 0) {
                    json.name("threads_not_started").value(interp.notStarted());
                }
                json.endObject();
            }
            json.endArray().endObject();
        }));
        out.flush();
    }

    private static void thread(JsonWriter json, ThreadStack thread) throws IOException {
        json.beginObject().name("thread_id").value(thread.threadId()).name("status").beginArray();
        for (ThreadStatus status : thread.status().stream().sorted().toList()) {
            json.value(status.label());
        }
        json.endArray().name("frames");
        JsonFrames.write(json, thread.frames(), thread.variables());
        if (thread.problem().isPresent()) {
            json.name("incomplete").value(thread.problem().get());
        }
        json.endObject();
    }
}
