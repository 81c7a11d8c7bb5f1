package dev.remora.app.output.dump;

import dev.remora.app.output.json.JsonFrames;
import dev.remora.app.output.json.JsonMixedFrames;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.nativestack.MixedStack;
import dev.remora.domain.nativestack.ThreadKey;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;

/** Writes a stack dump as one JSON document; the key names are a stable interface for other tools. */
public final class JsonDumpWriter implements DumpWriter {

    @Override
    public void write(ProcessStacks stacks, NativeDump nativeDump, PrintWriter out) {
        out.println(JsonWriter.text(json -> {
            json.beginObject()
                    .name("pid").value(stacks.pid())
                    .name("python_version").value(stacks.pythonVersion().toString())
                    .name("backend").value(stacks.backend())
                    .name("interpreters").beginArray();
            for (InterpreterStacks interp : stacks.interpreters()) {
                json.beginObject().name("interpreter_id").value(interp.interpreterId()).name("threads").beginArray();
                for (ThreadStack thread : TextDumpWriter.signalledFirst(interp.threads(), nativeDump)) {
                    thread(json, interp.interpreterId(), thread, nativeDump);
                }
                json.endArray();
                if (interp.notStarted() > 0) {
                    json.name("threads_not_started").value(interp.notStarted());
                }
                json.endObject();
            }
            json.endArray();
            if (nativeDump.present()) {
                json.name("native_threads").beginArray();
                for (NativeDump.CThread thread : nativeDump.cThreads()) {
                    json.beginObject().name("thread_id").value(thread.threadId()).name("name").value(thread.name().orElse(null));
                    signal(json, thread.threadId(), nativeDump);
                    json.name("frames");
                    JsonMixedFrames.write(json, thread.stack(), List.of(), List.of());
                    problem(json, thread.stack());
                    json.endObject();
                }
                json.endArray();
            }
            json.endObject();
        }));
        out.flush();
    }

    private static void thread(JsonWriter json, long interpreterId, ThreadStack thread, NativeDump nativeDump) throws IOException {
        json.beginObject().name("thread_id").value(thread.threadId());
        if (thread.name().isPresent()) {
            json.name("name").value(thread.name().get());
        }
        json.name("status").beginArray();
        for (ThreadStatus status : thread.status().stream().sorted().toList()) {
            json.value(status.label());
        }
        json.endArray();
        signal(json, thread.threadId(), nativeDump);
        json.name("frames");
        MixedStack mixed = nativeDump.stacks().get(new ThreadKey(interpreterId, thread.threadId()));
        if (mixed == null) {
            JsonFrames.write(json, thread.frames(), thread.variables());
        } else {
            JsonMixedFrames.write(json, mixed, thread.frames(), thread.variables());
            problem(json, mixed);
        }
        if (thread.problem().isPresent()) {
            json.name("incomplete").value(thread.problem().get());
        }
        json.endObject();
    }

    private static void signal(JsonWriter json, long threadId, NativeDump nativeDump) throws IOException {
        if (nativeDump.signal().isPresent() && nativeDump.signal().get().threadId() == threadId) {
            json.name("signal").value(nativeDump.signal().get().name())
                    .name("fault_address").value("0x" + Long.toHexString(nativeDump.signal().get().faultAddress()));
        }
    }

    private static void problem(JsonWriter json, MixedStack mixed) throws IOException {
        json.name("hidden_native_frames").value(mixed.hidden());
        if (mixed.problem().isPresent()) {
            json.name("native_problem").value(mixed.problem().get());
        }
    }
}
