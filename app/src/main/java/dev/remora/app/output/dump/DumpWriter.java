package dev.remora.app.output.dump;

import dev.remora.domain.model.ProcessStacks;

import java.io.PrintWriter;

/** Renders a stack dump. */
public interface DumpWriter {
    default void write(ProcessStacks stacks, PrintWriter out) {
        write(stacks, NativeDump.none(), out);
    }

    /** The dump with each thread's C frames merged in where {@code native} has them. */
    void write(ProcessStacks stacks, NativeDump nativeDump, PrintWriter out);
}
