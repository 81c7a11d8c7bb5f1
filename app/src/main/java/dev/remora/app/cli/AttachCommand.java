package dev.remora.app.cli;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.ports.ProcessImageException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code remora attach}: profile a running process. */
@Command(name = "attach", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Profile a running Python process until it exits, the duration is over, or Ctrl-C.")
public class AttachCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ProfileOptions profile = new ProfileOptions();

    @Mixin
    TargetOptions target;

    @Override
    public Integer call() throws Exception {
        profile.validate();
        target.validate();
        if (profile.subprocesses) {
            try (TargetPorts _ = target.open()) {
                // The process must exist; whether it is Python is each process's own question.
            }
            return new ProcessTreeProfiler(profile, target.backend, spec.commandLine().getOut(), spec.commandLine().getErr())
                    .run(target.pid, () -> ProcessHandle.of(target.pid).map(ProcessHandle::isAlive).orElse(false));
        }
        // A bad output path fails before anything is attached; the live view takes the screen only once attached.
        ProfileOutput file = profile.live ? null
                : ProfileOutput.prepare(profile, target.pid, spec.commandLine().getOut(), spec.commandLine().getErr());
        try (TargetPorts ports = target.open()) {
            PythonProcess process = PythonProcess.attach(ports.image(), ports.memory());
            ProfileSink output = file != null ? file : LiveView.open(spec.commandLine().getOut(),
                    SnapshotOptions.Threads.all(profile.allThreads));
            return new ProfileSession(process, ports, profile, output, spec.commandLine().getErr(),
                    ProfileSession.FirstTick.AFTER_WARM_UP).run(() -> alive(ports));
        }
    }

    private static boolean alive(TargetPorts ports) {
        try {
            return !ports.image().threadIds().isEmpty();
        } catch (ProcessImageException e) {
            return false;
        }
    }
}
