package dev.remora.app.output;

import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.ThreadStack;

import java.io.PrintWriter;
import java.util.stream.Collectors;

/** Writes a stack dump as one JSON document; the key names are a stable interface for other tools. */
public final class JsonDumpWriter implements DumpWriter {

    @Override
    public void write(ProcessStacks stacks, PrintWriter out) {
        StringBuilder b = new StringBuilder(4096);
        b.append("{\"pid\": ").append(stacks.pid())
                .append(", \"python_version\": ").append(Json.string(stacks.pythonVersion().toString()))
                .append(", \"backend\": ").append(Json.string(stacks.backend()))
                .append(", \"interpreters\": [");
        String sep = "";
        for (InterpreterStacks interp : stacks.interpreters()) {
            b.append(sep).append("{\"interpreter_id\": ").append(interp.interpreterId()).append(", \"threads\": [");
            String threadSep = "";
            for (ThreadStack thread : interp.threads()) {
                b.append(threadSep);
                thread(b, thread);
                threadSep = ", ";
            }
            b.append(']');
            if (interp.notStarted() > 0) {
                b.append(", \"threads_not_started\": ").append(interp.notStarted());
            }
            b.append('}');
            sep = ", ";
        }
        b.append("]}");
        out.println(b);
        out.flush();
    }

    private static void thread(StringBuilder b, ThreadStack thread) {
        b.append("{\"thread_id\": ").append(thread.threadId()).append(", \"status\": [")
                .append(thread.status().stream().sorted().map(s -> Json.string(s.label())).collect(Collectors.joining(", ")))
                .append("], \"frames\": ");
        Json.appendFrames(b, thread.frames());
        thread.problem().ifPresent(p -> b.append(", \"incomplete\": ").append(Json.string(p)));
        b.append('}');
    }

}
