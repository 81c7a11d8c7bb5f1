package dev.remora.app.output.dump;

import dev.remora.domain.model.ProcessStacks;

import java.io.PrintWriter;

/** Renders a stack dump. */
public interface DumpWriter {
    void write(ProcessStacks stacks, PrintWriter out);
}
