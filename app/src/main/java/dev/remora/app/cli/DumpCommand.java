package dev.remora.app.cli;

import dev.remora.app.output.DumpWriter;
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

/** {@code remora dump}: one snapshot of a live process's Python stacks. */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = "Print the current Python stack of a running process (the main thread of each interpreter, or all threads with -a).")
public final class DumpCommand implements Callable<Integer> {

    enum Format { text, json }

    @Spec
    CommandSpec spec;

    @Mixin
    TargetOptions target = new TargetOptions();

    @Option(names = {"-a", "--all-threads"}, description = "Dump every thread, not only the main thread.")
    boolean allThreads;

    @Option(names = "--native", description = "Show calls through C code between Python frames as <native> frames.")
    boolean nativeFrames;

    @Option(names = "--no-gc", description = "Do not show a <GC> frame where a garbage collection is running (3.15+).")
    boolean noGc;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: text).")
    Format format;

    @Override
    public Integer call() throws Exception {
        try (TargetOptions.Ports ports = target.open()) {
            PythonProcess process = PythonProcess.attach(ports.image(), ports.memory());
            var stacks = process.snapshot(new SnapshotOptions(allThreads, nativeFrames, !noGc, true));
            DumpWriter writer = switch (format) {
                case text -> new TextDumpWriter(new SourceLines(ports.image()));
                case json -> new JsonDumpWriter();
            };
            writer.write(stacks, spec.commandLine().getOut());
            return 0;
        }
    }
}
