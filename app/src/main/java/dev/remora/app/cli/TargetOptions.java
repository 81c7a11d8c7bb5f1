package dev.remora.app.cli;

import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.ProvisionException;
import dev.remora.app.wiring.Backend;
import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.RemoteMemory;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** The live process to inspect and how to read it; shared by the commands that attach. */
public final class TargetOptions {

    @Option(names = "--backend", paramLabel = "vmreadv|procmem", defaultValue = "vmreadv",
            description = "How to read the target's memory: process_vm_readv (default) or /proc/PID/mem.")
    Backend backend;

    @Parameters(index = "0", paramLabel = "PID", description = "Process id of the Python process.")
    int pid;

    /** The bound ports, after checking that the process exists. */
    public Ports open() throws InspectionException {
        if (pid <= 0) {
            throw new UserError("not a process id: " + pid, UserErrorHandler.EXIT_USAGE);
        }
        return open(backend, pid);
    }

    /** Installs the backend's module for {@code pid} and gets the ports it binds. */
    static Ports open(Backend backend, int pid) throws InspectionException {
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

    /** The ports one command works with. */
    public record Ports(ProcessImage image, RemoteMemory memory) implements AutoCloseable {
        @Override
        public void close() {
            memory.close();
        }
    }
}
