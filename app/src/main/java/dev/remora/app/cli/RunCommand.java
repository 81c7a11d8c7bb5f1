package dev.remora.app.cli;

import dev.remora.domain.InspectionException;
import dev.remora.domain.walk.PythonProcess;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/** {@code remora run}: start a script or module under a Python and profile it from its first moments. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run a Python script (or -m module) and profile it until it exits, the duration is over, or Ctrl-C.")
public final class RunCommand implements Callable<Integer> {

    /** How long a freshly started interpreter may take to set up its runtime. */
    private static final long ATTACH_TIMEOUT_NANOS = 10_000_000_000L;

    @Spec
    CommandSpec spec;

    @Mixin
    ProfileOptions profile = new ProfileOptions();

    @Mixin
    BackendOption backend = new BackendOption();

    @Option(names = "--python", paramLabel = "EXE", description = "The Python to run (default: the newest supported one found).")
    Path python;

    @Option(names = "-m", paramLabel = "MODULE", description = "Run a library module as a script, like python -m.")
    String module;

    @Parameters(paramLabel = "ARGS", arity = "0..*", description = "The script and its arguments (or the module's arguments with -m).")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (module == null && args.isEmpty()) {
            throw new UserError("run needs a script or -m MODULE", UserErrorHandler.EXIT_USAGE);
        }
        Path exe = python != null ? PythonFinder.check(python) : PythonFinder.find();
        List<String> command = new ArrayList<>(List.of(exe.toString()));
        if (module != null) {
            command.addAll(List.of("-m", module));
        }
        command.addAll(args);
        Process child = new ProcessBuilder(command).inheritIO().start();
        try {
            ProfileOutput output = ProfileOutput.prepare(profile, (int) child.pid(), spec.commandLine().getOut(),
                    spec.commandLine().getErr());
            try (TargetOptions.Ports ports = open(child)) {
                PythonProcess process = attachWhenReady(child, ports);
                return new ProfileSession(process, ports.image(), profile, output, spec.commandLine().getErr())
                        .run(child::isAlive);
            }
        } finally {
            stop(child);
        }
    }

    /** A target that dies at once is gone before the ports open: say how it ended, not that it is missing. */
    private TargetOptions.Ports open(Process child) throws Exception {
        try {
            return TargetOptions.open(backend.backend, (int) child.pid());
        } catch (InspectionException.TargetGone e) {
            child.waitFor(5, TimeUnit.SECONDS);
            throw exitedEarly(child);
        }
    }

    private static UserError exitedEarly(Process child) {
        return new UserError("the target exited with code %d before it could be profiled".formatted(child.exitValue()),
                UserErrorHandler.EXIT_FAILURE);
    }

    /** The interpreter maps its runtime and creates its first thread a little after exec; wait for that. */
    private static PythonProcess attachWhenReady(Process child, TargetOptions.Ports ports) throws Exception {
        long deadline = System.nanoTime() + ATTACH_TIMEOUT_NANOS;
        InspectionException last = null;
        while (System.nanoTime() < deadline) {
            if (!child.isAlive()) {
                throw exitedEarly(child);
            }
            try {
                PythonProcess process = PythonProcess.attach(ports.image(), ports.memory());
                process.snapshot(dev.remora.domain.walk.SnapshotOptions.threads(false));
                return process;
            } catch (InspectionException.NotPython | InspectionException.Unreadable | InspectionException.CorruptTarget e) {
                last = e;
                Thread.sleep(5);
            } catch (InspectionException.TargetGone e) {
                child.waitFor(5, TimeUnit.SECONDS);
                throw exitedEarly(child);
            }
        }
        throw last;
    }

    private static void stop(Process child) throws InterruptedException {
        if (child.isAlive()) {
            child.destroy();
            if (!child.waitFor(3, TimeUnit.SECONDS)) {
                child.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
            }
        }
    }
}
