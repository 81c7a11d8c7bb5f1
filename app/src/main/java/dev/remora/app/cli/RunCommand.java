package dev.remora.app.cli;

import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
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

/** {@code remora run}: start a script or module under a Python and profile it from its first moments. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Run a Python script (or -m module) and profile it until it exits, the duration is over, or Ctrl-C.")
public final class RunCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ProfileOptions profile = new ProfileOptions();

    @Mixin
    BackendOption backend;

    @Option(names = "--python", paramLabel = "EXE", description = "The Python to run (default: the newest supported one found).")
    Path python;

    @Option(names = "-m", paramLabel = "MODULE", description = "Run a library module as a script, like python -m.")
    String module;

    @Parameters(paramLabel = "ARGS", arity = "0..*", description = "The script and its arguments (or the module's arguments with -m).")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        profile.validate();
        backend.validate();
        if (module == null && args.isEmpty()) {
            throw new UserError("run needs a script or -m MODULE", UserErrorHandler.EXIT_USAGE);
        }
        Path exe = python != null ? PythonFinder.check(python) : found(PythonFinder.find());
        List<String> command = new ArrayList<>(List.of(exe.toString()));
        if (module != null) {
            command.addAll(List.of("-m", module));
        }
        command.addAll(args);
        // Stopped with ptrace, the target reports its stops to whoever waits on it: not the JVM, then.
        LaunchedTarget.Parent parent = profile.blocking ? LaunchedTarget.Parent.PYTHON : LaunchedTarget.Parent.REMORA;
        try (LaunchedTarget target = LaunchedTarget.start(command, LaunchedTarget.Output.SHARED, parent)) {
            if (profile.subprocesses) {
                int code = new ProcessTreeProfiler(profile, backend, spec.commandLine().getOut(), spec.commandLine().getErr())
                        .run(target.pid(), target::alive);
                java.util.OptionalInt exited = target.exitCode(!target.alive());
                if (code == 0 && exited.isPresent() && exited.getAsInt() != 0) {
                    spec.commandLine().getErr().printf("remora: the target exited with code %d%n", exited.getAsInt());
                    spec.commandLine().getErr().flush();
                    return UserErrorHandler.EXIT_FAILURE;
                }
                return code;
            }
            ProfileOutput file = profile.live ? null
                    : ProfileOutput.prepare(profile, target.pid(), spec.commandLine().getOut(), spec.commandLine().getErr());
            PythonProcess process = target.attach(backend);
            ProfileSink output = file != null ? file : LiveView.open(spec.commandLine().getOut(),
                    SnapshotOptions.Threads.all(profile.allThreads));
            ProfileSession session = new ProfileSession(process, target.ports(), profile, output,
                    spec.commandLine().getErr(), ProfileSession.FirstTick.AT_ONCE);
            int code = session.run(target::alive);
            // A script that failed fails the run too, once its profile is written: scripts and CI steps see it.
            java.util.OptionalInt exited = target.exitCode(session.targetExited());
            if (code == 0 && exited.isPresent() && exited.getAsInt() != 0) {
                spec.commandLine().getErr().printf("remora: the target exited with code %d%n", exited.getAsInt());
                spec.commandLine().getErr().flush();
                return UserErrorHandler.EXIT_FAILURE;
            }
            return code;
        }
    }

    /** The Python found for the user, named on stderr with how it was found: a wrong guess shows at once. */
    private Path found(PythonFinder.Found found) {
        spec.commandLine().getErr().printf("Running under %s (%s); --python EXE picks another.%n", found.executable(), found.how());
        spec.commandLine().getErr().flush();
        return found.executable();
    }
}
