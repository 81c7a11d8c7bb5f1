package dev.remora.app.cli;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.adapters.procmem.ProcessList;
import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.app.ps.PsJsonWriter;
import dev.remora.app.ps.PsTextWriter;
import dev.remora.app.ps.PythonProcessFinder;
import dev.remora.app.ps.PythonProcessRow;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code remora ps}: the Python processes on this host, with their CPython version and threads. */
@Command(name = "ps", mixinStandardHelpOptions = true, sortOptions = false,
        description = "List the Python processes on this host (or under one process with --tree): pid, parent,"
                + " CPython version, Python threads and command line. Processes Remora may not read are listed with the reason.")
public final class PsCommand implements Callable<Integer> {

    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Mixin
    BackendOption backend;

    @Option(names = "--tree", paramLabel = "PID", description = "Only this process and the processes under it.")
    Integer tree;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: text).")
    Format format;

    @Override
    public Integer call() {
        backend.validate();
        if (tree != null && (tree <= 0 || !ProcfsProcessImage.exists(tree))) {
            throw new UserError("--tree %d: no such process".formatted(tree), UserErrorHandler.EXIT_USAGE);
        }
        List<ProcessList.Entry> processes;
        try {
            processes = ProcessList.all();
        } catch (IOException e) {
            throw new UserError("cannot list the processes in /proc: " + e.getMessage(), UserErrorHandler.EXIT_FAILURE);
        }
        PythonProcessFinder finder = new PythonProcessFinder(pid -> {
            TargetPorts ports = backend.open(pid);
            return new PythonProcessFinder.Opened(ports.image(), ports.memory());
        }, (int) ProcessHandle.current().pid());
        List<PythonProcessRow> rows = finder.find(processes, Optional.ofNullable(tree));
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case text -> PsTextWriter.write(rows, out);
            case json -> PsJsonWriter.write(rows, out);
        }
        return 0;
    }
}
