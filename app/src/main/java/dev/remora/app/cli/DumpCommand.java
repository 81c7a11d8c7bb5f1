package dev.remora.app.cli;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.adapters.procmem.ProcessList;
import dev.remora.app.output.dump.DumpWriter;
import dev.remora.app.output.asyncio.AsyncJsonWriter;
import dev.remora.app.output.asyncio.AsyncTextWriter;
import dev.remora.app.output.asyncio.AsyncWriter;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.app.output.dump.JsonDumpWriter;
import dev.remora.app.output.dump.NativeDump;
import dev.remora.app.output.dump.SourceLines;
import dev.remora.app.output.dump.TextDumpWriter;
import dev.remora.app.output.json.JsonWriter;
import dev.remora.app.ps.PythonProcessFinder;
import dev.remora.app.ps.PythonProcessRow;
import dev.remora.domain.InspectionException;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.nativestack.InternalFrames;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.ports.ProcessStopper;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code remora dump}: one snapshot of the Python stacks of a live process or of a core file. */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Print the current Python stack of a running process, or the stack recorded in a core file"
                + " (the main thread of each interpreter, or all threads with -a).")
public final class DumpCommand implements Callable<Integer> {

    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Mixin
    DumpTarget target;

    @Option(names = {"-a", "--all-threads"}, description = "Dump every thread, not only the main thread.")
    boolean allThreads;

    @Option(names = "--native", description = "Show calls through C code between Python frames as <native> frames.")
    boolean nativeFrames;

    @Option(names = "--native-frames", description = "Show each thread's C frames too, merged with its Python frames in"
            + " call order (a running process is stopped while it is read).")
    boolean cFrames;

    @Option(names = "--native-all", description = "As --native-frames, and also list the threads that have no Python state"
            + " (threads started by C code).")
    boolean cThreads;

    @Option(names = "--internal-frames", description = "With --native-frames: also show the interpreter's own C frames"
            + " (the eval loop, call and vectorcall helpers), hidden by default.")
    boolean internalFrames;

    @Option(names = "--no-gc", description = "Do not show a <GC> frame where a garbage collection is running (3.15+).")
    boolean noGc;

    @Option(names = "--async-aware", description = "Show asyncio tasks, their coroutine stacks and who awaits them (3.14+).")
    boolean asyncAware;

    @Option(names = "--async-mode", paramLabel = "all|running", defaultValue = "all",
            description = "With --async-aware: every task (default), or each thread's running task and its awaiters.")
    String asyncMode;

    @Option(names = "--locals", description = "Show each frame's arguments and local variables, read from memory"
            + " (values as repr() shows them, long ones cut).")
    boolean locals;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: text).")
    Format format;

    @Option(names = "--subprocesses", description = "Dump every Python process under the PID too (with --format json, a JSON array of dumps).")
    boolean subprocesses;

    @Override
    public Integer call() throws Exception {
        if (subprocesses) {
            return dumpTree();
        }
        try (TargetPorts ports = target.open(spec.commandLine().getParseResult())) {
            dump(ports, target.attach(ports), spec.commandLine().getOut());
            return 0;
        }
    }

    private void dump(TargetPorts ports, PythonProcess process, PrintWriter out) throws InspectionException {
        if (internalFrames && !(cFrames || cThreads)) {
            throw new UserError("--internal-frames applies with --native-frames or --native-all", UserErrorHandler.EXIT_USAGE);
        }
        if (cFrames || cThreads) {
            if (asyncAware) {
                throw new UserError("--native-frames does not combine with --async-aware", UserErrorHandler.EXIT_USAGE);
            }
            dumpWithC(ports, process, out);
            return;
        }
        if (asyncAware) {
            AsyncMode mode = AsyncModeOption.parse(asyncMode);
            AsyncSnapshot snapshot = locals ? process.asyncSnapshotWithVariables(mode) : process.asyncSnapshot(mode);
            AsyncWriter writer = switch (format) {
                case text -> new AsyncTextWriter(new SourceLines(ports.image()));
                case json -> new AsyncJsonWriter();
            };
            writer.write(snapshot, out);
            return;
        }
        var stacks = snapshot(process, options());
        target.check(stacks);
        writer(ports).write(process.named(stacks), out);
    }

    private SnapshotOptions options() {
        return SnapshotOptions.of(SnapshotOptions.Threads.all(allThreads || cThreads)).withNativeFrames(nativeFrames)
                .withGcFrames(!noGc).withCpuState(true);
    }

    private ProcessStacks snapshot(PythonProcess process, SnapshotOptions options) throws InspectionException {
        return locals ? process.snapshotWithVariables(options) : process.snapshot(options);
    }

    private DumpWriter writer(TargetPorts ports) {
        return switch (format) {
            case text -> new TextDumpWriter(new SourceLines(ports.image()));
            case json -> new JsonDumpWriter();
        };
    }

    /**
     * Python and C frames of one moment: a running process is stopped (ptrace) for the Python walk and
     * its threads' registers, and runs on before anything is written.
     */
    private void dumpWithC(TargetPorts ports, PythonProcess process, PrintWriter out) throws InspectionException {
        NativeStacksReader reader = new NativeStacksReader(ports.image(), ports.memory(), process,
                internalFrames ? InternalFrames.SHOWN : InternalFrames.HIDDEN);
        NativeStacksReader.Threads threads = cThreads ? NativeStacksReader.Threads.ALL : NativeStacksReader.Threads.PYTHON;
        // The C frames stand where <native> markers would.
        SnapshotOptions options = options().withNativeFrames(false);
        ProcessStacks stacks;
        NativeDump nativeDump;
        if (!ports.memory().changes()) {
            stacks = snapshot(process, options);
            target.check(stacks);
            nativeDump = reader.read(stacks, ports.image()::registers, threads);
        } else {
            try (ProcessStopper stopper = StoppedSamples.seize(process.pid(),
                    "--native-frames needs to stop the process to read its registers: ")) {
                StoppedSamples.stop(stopper);
                try {
                    stacks = snapshot(process, options);
                    nativeDump = reader.read(stacks, stopper::registers, threads);
                } finally {
                    stopper.resume();
                }
            }
        }
        // Named once the process runs again: the names are read apart from the stopped moment.
        writer(ports).write(process.named(stacks), nativeDump, out);
    }

    /**
     * Every Python process in the tree under the PID, one dump after the other (as text), or one
     * JSON array of their documents; a process that could not be read is there with the reason.
     */
    private int dumpTree() throws Exception {
        int root = target.livePid("--subprocesses");
        List<ProcessList.Entry> processes = ProcessList.all();
        if (processes.stream().noneMatch(p -> p.pid() == root)) {
            throw new UserError("no process %d".formatted(root), UserErrorHandler.EXIT_FAILURE);
        }
        // Each process is dumped while the finder has it open, into text of its own, then shown in pid order.
        Map<Integer, String> dumps = new HashMap<>();
        List<PythonProcessRow> rows = new PythonProcessFinder(pid -> {
            TargetPorts ports = target.backend.open(pid);
            return new PythonProcessFinder.Opened(ports.image(), ports.memory());
        }, (int) ProcessHandle.current().pid()).find(processes, Optional.of(root), (opened, process) -> {
            StringWriter one = new StringWriter();
            PrintWriter into = new PrintWriter(one);
            dump(new TargetPorts(opened.image(), opened.memory()), process, into);
            into.flush();
            dumps.put(process.pid(), one.toString());
            return 0; // the dump shows the threads; ps counts them
        });
        if (rows.isEmpty()) {
            throw new UserError("neither process %d nor any process under it runs Python".formatted(root),
                    UserErrorHandler.EXIT_FAILURE);
        }
        PrintWriter out = spec.commandLine().getOut();
        List<String> documents = new ArrayList<>();
        for (PythonProcessRow row : rows) {
            String text = row.error().isPresent() && format == Format.json
                    ? JsonWriter.text(json -> json.beginObject()
                            .name("pid").value(row.pid()).name("error").value(row.error().get()).endObject())
                    : row.error().map(why -> "Process %d (%s): not read: %s%n".formatted(row.pid(), row.commandLine(), why))
                            .orElse(dumps.get(row.pid()));
            if (format == Format.json) {
                documents.add(text.strip());
            } else {
                out.print(text);
                out.println();
            }
        }
        if (format == Format.json) {
            out.println(JsonWriter.text(json -> {
                json.beginArray();
                for (String document : documents) {
                    json.rawValue(document);
                }
                json.endArray();
            }));
        }
        out.flush();
        return 0;
    }
}
