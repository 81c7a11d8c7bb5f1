package dev.remora.app.cli;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.ProvisionException;
import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.RemoteMemory;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** The live process to inspect and how to read it; shared by the commands that attach. */
public final class TargetOptions {

    @Mixin
    BackendOption backend = new BackendOption();

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
    public Ports open() throws InspectionException {
        validate();
        return open(backend, pid);
    }

    /** Installs the backend's module for {@code pid} and gets the ports it binds. */
    static Ports open(BackendOption backend, int pid) throws InspectionException {
        Injector injector = Guice.createInjector(backend.moduleFor(pid));
        try {
            ProcessImage image = injector.getInstance(ProcessImage.class);
            return new Ports(image, injector.getInstance(RemoteMemory.class));
        } catch (ProvisionException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            if (cause instanceof ProcessImageException p) {
                throw Failures.from(p);
            }
            throw new UserError("cannot open process %d for reading: %s".formatted(pid, cause.getMessage()),
                    UserErrorHandler.EXIT_FAILURE);
        }
    }

    /**
     * Opens Remora's own process once through {@code backend}, so that Guice and the native binding
     * are loaded before a target is started: otherwise its first fifth of a second goes unsampled.
     * A failure here is left for the real open to report.
     */
    static void warmUp(BackendOption backend) {
        try (Ports _ = open(backend, (int) ProcessHandle.current().pid())) {
            // Opening was the point.
        } catch (InspectionException | RuntimeException e) {
            // The target's own open says what is wrong.
        }
    }

    /** The ports one command works with. */
    public record Ports(ProcessImage image, RemoteMemory memory) implements AutoCloseable {
        @Override
        public void close() {
            memory.close();
        }
    }
}
