package dev.remora.app.cli;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.adapters.coredump.CoreDump;
import dev.remora.adapters.coredump.CoreFileException;
import dev.remora.adapters.coredump.UnavailableFile;
import dev.remora.domain.InspectionException;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.walk.PythonProcess;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParseResult;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/** What {@code dump} reads: a running process by PID, or a core file (with the root its files live under). */
public final class DumpTarget {

    @Mixin
    BackendOption backend;

    @Parameters(index = "0", arity = "0..1", paramLabel = "PID", description = "Process id of a running Python process.")
    Integer pid;

    @Option(names = "--core", paramLabel = "FILE",
            description = "Read a core file (from gcore or the kernel) instead of a running process.")
    Path core;

    @Option(names = "--sysroot", paramLabel = "DIR",
            description = "With --core: the directory the core's files live under (the target's root, e.g. a container's or chroot's).")
    Path sysroot;

    /** The opened core, kept to explain failures that its missing files caused; null for a live process. */
    private CoreDump dump;

    /** Checks the combination of arguments and opens the target's ports. */
    public TargetPorts open(ParseResult parsed) throws InspectionException {
        if (core == null) {
            if (sysroot != null) {
                throw usage("--sysroot applies only with --core FILE");
            }
            if (pid == null) {
                throw usage("give the PID of a running Python process, or --core FILE");
            }
            if (pid <= 0) {
                throw usage("not a process id: " + pid);
            }
            return backend.open(pid);
        }
        if (pid != null) {
            throw usage("give either a PID or --core FILE, not both");
        }
        for (String liveOnly : List.of("--backend", "--native-binding")) {
            if (parsed.hasMatchedOption(liveOnly)) {
                throw usage(liveOnly + " applies to running processes; a core is read from its file");
            }
        }
        if (sysroot != null && !Files.isDirectory(sysroot)) {
            throw usage("--sysroot " + sysroot + " is not a directory");
        }
        return openCore();
    }

    /** The PID of a running process, for an option ({@code option}) that only a running process has. */
    int livePid(String option) {
        if (core != null) {
            throw usage(option + " applies to a running process, not to --core");
        }
        if (pid == null || pid <= 0) {
            throw usage(option + " needs the PID of a running process");
        }
        backend.validate();
        return pid;
    }

    /**
     * Finds the runtime. When a core's interpreter is not on this machine, the failure names the
     * file and the flag that fixes it rather than calling the process "not Python".
     */
    public PythonProcess attach(TargetPorts ports) throws InspectionException {
        try {
            return PythonProcess.attach(ports.image(), ports.memory());
        } catch (InspectionException.NotPython e) {
            Optional<UnavailableFile> interpreter = dump == null ? Optional.empty() : dump.unavailableFiles().stream()
                    .filter(f -> basename(f.path()).contains("python")).filter(UnavailableFile::sysrootMayHelp).findFirst();
            if (interpreter.isPresent()) {
                throw sysrootAdvice("cannot find the Python runtime in core", interpreter.get());
            }
            throw e;
        }
    }

    /**
     * Fails a core's dump whose stacks stopped short because the bytes they needed are in a mapped
     * file this machine does not have (kernel cores leave out file-backed text and read-only data):
     * the fix is the sysroot, and half-empty stacks would hide that.
     */
    public void check(ProcessStacks stacks) {
        if (dump == null) {
            return;
        }
        boolean incomplete = stacks.interpreters().stream()
                .flatMap(i -> i.threads().stream()).anyMatch(t -> t.problem().isPresent());
        List<UnavailableFile> missed = dump.missedFiles().stream().filter(UnavailableFile::sysrootMayHelp).toList();
        if (incomplete && !missed.isEmpty()) {
            UnavailableFile first = missed.stream().filter(f -> basename(f.path()).contains("python")).findFirst()
                    .orElse(missed.getFirst());
            throw sysrootAdvice("cannot read the stacks in core", first);
        }
    }

    private UserError sysrootAdvice(String what, UnavailableFile file) {
        return new UserError("%s %s: %s; pass --sysroot DIR, the directory the core's files live under (DIR%s)"
                .formatted(what, core, file.describe(), file.path()), UserErrorHandler.EXIT_FAILURE);
    }

    private TargetPorts openCore() {
        try {
            dump = backend.targets().core(core, Optional.ofNullable(sysroot));
            return new TargetPorts(dump.image(), dump.memory());
        } catch (CoreFileException c) {
            throw new UserError(c.getMessage(), UserErrorHandler.EXIT_FAILURE);
        }
    }

    private static UserError usage(String message) {
        return new UserError(message, UserErrorHandler.EXIT_USAGE);
    }

    private static String basename(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
