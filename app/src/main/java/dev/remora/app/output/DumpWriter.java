package dev.remora.app.output;

import dev.remora.domain.model.ProcessStacks;

import java.io.PrintStream;

/** Renders a stack dump. */
public interface DumpWriter {
    void write(ProcessStacks stacks, PrintStream out);
}
