package dev.remora.app.cli;

import dev.remora.app.output.DumpWriter;
import dev.remora.app.output.asyncio.AsyncJsonWriter;
import dev.remora.app.output.asyncio.AsyncTextWriter;
import dev.remora.app.output.asyncio.AsyncWriter;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.app.output.JsonDumpWriter;
import dev.remora.app.output.SourceLines;
import dev.remora.app.output.TextDumpWriter;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

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
    DumpTarget target = new DumpTarget();

    @Option(names = {"-a", "--all-threads"}, description = "Dump every thread, not only the main thread.")
    boolean allThreads;

    @Option(names = "--native", description = "Show calls through C code between Python frames as <native> frames.")
    boolean nativeFrames;

    @Option(names = "--no-gc", description = "Do not show a <GC> frame where a garbage collection is running (3.15+).")
    boolean noGc;

    @Option(names = "--async-aware", description = "Show asyncio tasks, their coroutine stacks and who awaits them (3.14+).")
    boolean asyncAware;

    @Option(names = "--async-mode", paramLabel = "all|running", defaultValue = "all",
            description = "With --async-aware: every task (default), or each thread's running task and its awaiters.")
    String asyncMode;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: text).")
    Format format;

    @Override
    public Integer call() throws Exception {
        try (TargetOptions.Ports ports = target.open(spec.commandLine().getParseResult())) {
            PythonProcess process = target.attach(ports);
            if (asyncAware) {
                AsyncSnapshot snapshot = process.asyncSnapshot(AsyncModeOption.parse(asyncMode));
                AsyncWriter writer = switch (format) {
                    case text -> new AsyncTextWriter(new SourceLines(ports.image()));
                    case json -> new AsyncJsonWriter();
                };
                writer.write(snapshot, spec.commandLine().getOut());
                return 0;
            }
            var stacks = process.snapshot(new SnapshotOptions(allThreads, nativeFrames, !noGc, true, false));
            target.check(stacks);
            DumpWriter writer = switch (format) {
                case text -> new TextDumpWriter(new SourceLines(ports.image()));
                case json -> new JsonDumpWriter();
            };
            writer.write(stacks, spec.commandLine().getOut());
            return 0;
        }
    }
}
