package dev.remora.app.output.dump;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.model.ThreadStatus;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a stack dump for people: per thread its id and status, then frames innermost first as
 * {@code function (file:line)} with the source line under each when the file can be read.
 */
public final class TextDumpWriter implements DumpWriter {

    private final SourceLines sources;

    public TextDumpWriter(SourceLines sources) {
        this.sources = sources;
    }

    @Override
    public void write(ProcessStacks stacks, PrintWriter out) {
        out.printf("Stack dump for PID %d (Python %s, backend %s)%n", stacks.pid(), stacks.pythonVersion(), stacks.backend());
        boolean several = stacks.interpreters().size() > 1;
        for (InterpreterStacks interp : stacks.interpreters()) {
            for (ThreadStack thread : interp.threads()) {
                out.println();
                String where = several ? "Interpreter %d, thread %d".formatted(interp.interpreterId(), thread.threadId())
                        : "Thread %d".formatted(thread.threadId());
                out.printf("%s (%s; most recent call first):%n", where, describe(thread));
                for (int f = 0; f < thread.frames().size(); f++) {
                    writeFrame(thread.frames().get(f), out);
                    if (!thread.variables().isEmpty()) {
                        VariableLines.of(thread.variables().get(f)).forEach(out::println);
                    }
                }
                if (thread.frames().isEmpty()) {
                    out.println("  (no Python frames)");
                }
                thread.problem().ifPresent(p -> out.printf("  [stack incomplete: %s]%n", p));
            }
            if (interp.notStarted() > 0) {
                out.println();
                out.printf("(%s%d thread state%s not started yet, left out)%n",
                        several ? "interpreter %d: ".formatted(interp.interpreterId()) : "", interp.notStarted(),
                        interp.notStarted() == 1 ? "" : "s");
            }
        }
        out.flush();
    }

    private void writeFrame(FrameInfo frame, PrintWriter out) {
        SourceLocation at = frame.location();
        if (at.hasLine()) {
            out.printf("  %s (%s:%d)%n", frame.function(), frame.file(), at.line());
            sources.line(frame.file(), at.line()).filter(s -> !s.isEmpty()).ifPresent(s -> out.printf("      %s%n", s));
        } else {
            out.printf("  %s (%s)%n", frame.function(), frame.file());
        }
    }

    static String describe(ThreadStack thread) {
        List<String> words = new ArrayList<>();
        var s = thread.status();
        if (s.contains(ThreadStatus.MAIN_THREAD)) {
            words.add("main thread");
        }
        if (s.contains(ThreadStatus.HAS_GIL)) {
            words.add("has GIL");
        } else if (s.contains(ThreadStatus.GIL_REQUESTED)) {
            words.add("waiting for GIL");
        }
        if (s.contains(ThreadStatus.ON_CPU)) {
            words.add("on CPU");
        } else if (s.contains(ThreadStatus.UNKNOWN)) {
            words.add("CPU state unknown");
        } else {
            words.add("idle");
        }
        if (s.contains(ThreadStatus.HAS_EXCEPTION)) {
            words.add("handling exception");
        }
        return String.join(", ", words);
    }
}
