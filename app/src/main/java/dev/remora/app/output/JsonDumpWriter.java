package dev.remora.app.output;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
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
            b.append("]}");
            sep = ", ";
        }
        b.append("]}");
        out.println(b);
        out.flush();
    }

    private static void thread(StringBuilder b, ThreadStack thread) {
        b.append("{\"thread_id\": ").append(thread.threadId()).append(", \"status\": [")
                .append(thread.status().stream().sorted().map(s -> Json.string(s.label())).collect(Collectors.joining(", ")))
                .append("], \"frames\": [");
        String sep = "";
        for (FrameInfo f : thread.frames()) {
            SourceLocation l = f.location();
            b.append(sep).append("{\"function\": ").append(Json.string(f.function()))
                    .append(", \"file\": ").append(Json.string(f.file()))
                    .append(", \"line\": ").append(Json.optionalNumber(l.line()))
                    .append(", \"end_line\": ").append(Json.optionalNumber(l.endLine()))
                    .append(", \"column\": ").append(Json.optionalNumber(l.column()))
                    .append(", \"end_column\": ").append(Json.optionalNumber(l.endColumn()))
                    .append('}');
            sep = ", ";
        }
        b.append(']');
        thread.problem().ifPresent(p -> b.append(", \"incomplete\": ").append(Json.string(p)));
        b.append('}');
    }

}
