package dev.remora.app.cli;

import picocli.CommandLine.Command;

/** The top-level command; the work is in its subcommands. */
@Command(name = "remora", mixinStandardHelpOptions = true, version = "remora 0.1.0",
        description = "Reads a running CPython 3.10-3.15 process from the outside and shows its Python stacks.",
        subcommands = {RunCommand.class, AttachCommand.class, DumpCommand.class, BenchCommand.class})
public final class RemoraCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
