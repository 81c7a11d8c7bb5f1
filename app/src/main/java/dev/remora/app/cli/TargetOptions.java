package dev.remora.app.cli;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.domain.InspectionException;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** The live process to inspect and how to read it; shared by the commands that attach. */
public final class TargetOptions {

    @Mixin
    BackendOption backend;

    @Parameters(index = "0", paramLabel = "PID", description = "Process id of the Python process.")
    int pid;

    /** Checks the options, before anything else is prepared. */
    void validate() {
        if (pid <= 0) {
            throw new UserError("not a process id: " + pid, UserErrorHandler.EXIT_USAGE);
        }
        backend.validate();
    }

    /** The bound ports, after checking that the process exists. */
    public TargetPorts open() throws InspectionException {
        validate();
        return backend.open(pid);
    }
}
