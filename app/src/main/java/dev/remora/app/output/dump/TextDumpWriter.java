package dev.remora.app.output.dump;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.nativestack.MixedStack;
import dev.remora.domain.nativestack.ThreadKey;
import dev.remora.domain.nativestack.StackEntry;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
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
    public void write(ProcessStacks stacks, NativeDump nativeDump, PrintWriter out) {
        out.printf("Stack dump for PID %d (Python %s, backend %s)%n", stacks.pid(), stacks.pythonVersion(), stacks.backend());
        boolean several = stacks.interpreters().size() > 1;
        for (InterpreterStacks interp : stacks.interpreters()) {
            for (ThreadStack thread : signalledFirst(interp.threads(), nativeDump)) {
                out.println();
                String where = (several ? "Interpreter %d, thread %d".formatted(interp.interpreterId(), thread.threadId())
                        : "Thread %d".formatted(thread.threadId())) + thread.name().map(n -> " \"" + n + "\"").orElse("");
                String signal = nativeDump.signalOf(thread.threadId()).map(s -> "; " + s).orElse("");
                out.printf("%s (%s%s; most recent call first):%n", where, describe(thread), signal);
                MixedStack mixed = nativeDump.stacks().get(new ThreadKey(interp.interpreterId(), thread.threadId()));
                if (mixed != null) {
                    writeMixed(thread, mixed, out);
                } else {
                    for (int f = 0; f < thread.frames().size(); f++) {
                        writeFrame(thread, f, out);
                    }
                    if (thread.frames().isEmpty()) {
                        out.println("  (no Python frames)");
                    }
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
        for (NativeDump.CThread thread : nativeDump.cThreads()) {
            out.println();
            String signal = nativeDump.signalOf(thread.threadId()).map(sig -> "; " + sig).orElse("");
            out.printf("Thread %d (%sno Python state%s; most recent call first):%n", thread.threadId(),
                    thread.name().map(n -> "\"" + n + "\", ").orElse(""), signal);
            writeMixed(null, thread.stack(), out);
        }
        out.flush();
    }

    /** C and Python frames in call order; {@code thread} holds the Python frames, null for a thread with none. */
    private void writeMixed(ThreadStack thread, MixedStack mixed, PrintWriter out) {
        for (StackEntry entry : mixed.entries()) {
            switch (entry) {
                case StackEntry.Python python -> writeFrame(thread, python.index(), out);
                case StackEntry.Native c -> out.printf("  %s%n", NativeFrameText.of(c.frame()));
            }
        }
        if (mixed.entries().isEmpty()) {
            out.println("  (no frames)");
        }
        if (mixed.hidden() > 0) {
            out.printf("  (%d interpreter frame%s hidden: --internal-frames shows them)%n", mixed.hidden(),
                    mixed.hidden() == 1 ? "" : "s");
        }
        mixed.problem().ifPresent(p -> out.printf("  [%s]%n", p));
    }

    private void writeFrame(ThreadStack thread, int f, PrintWriter out) {
        writeFrame(thread.frames().get(f), out);
        if (!thread.variables().isEmpty()) {
            VariableLines.of(thread.variables().get(f)).forEach(out::println);
        }
    }

    /** The thread that took a core's fatal signal first: where a crash is read from. */
    static List<ThreadStack> signalledFirst(List<ThreadStack> threads, NativeDump nativeDump) {
        if (nativeDump.signal().isEmpty()) {
            return threads;
        }
        long signalled = nativeDump.signal().get().threadId();
        List<ThreadStack> ordered = new ArrayList<>(threads);
        ordered.sort(Comparator.comparing(t -> t.threadId() != signalled));
        return ordered;
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
