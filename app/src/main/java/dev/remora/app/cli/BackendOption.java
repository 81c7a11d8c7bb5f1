package dev.remora.app.cli;

import dev.remora.adapters.vmreadv.NativeBinding;
import dev.remora.app.wiring.Backend;
import dev.remora.app.wiring.TargetPorts;
import dev.remora.app.wiring.TargetSource;
import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.ports.ProcessImageException;
import jakarta.inject.Inject;
import picocli.CommandLine.Option;

/** {@code --backend} and, for vmreadv, {@code --native-binding}: how a live target's memory is read. */
public final class BackendOption {
    @Option(names = "--backend", paramLabel = "vmreadv|procmem", defaultValue = "vmreadv",
            description = "How to read the target's memory: process_vm_readv (default) or /proc/PID/mem.")
    Backend backend;

    @Option(names = "--native-binding", paramLabel = "ffm|jna|jnr", defaultValue = "ffm",
            description = "Which native binding calls process_vm_readv (default: ffm); only for --backend vmreadv.")
    NativeBinding nativeBinding;

    private final TargetSource targets;

    @Inject
    BackendOption(TargetSource targets) {
        this.targets = targets;
    }

    /** Rejects a binding for a backend that calls no native function; checked before any target starts. */
    void validate() {
        if (nativeBinding != NativeBinding.ffm && backend != Backend.vmreadv) {
            throw new UserError("--native-binding %s applies only with --backend vmreadv, not %s"
                    .formatted(nativeBinding, backend), UserErrorHandler.EXIT_USAGE);
        }
    }

    /** The ports of running process {@code pid}, read as chosen. */
    TargetPorts open(int pid) throws InspectionException {
        validate();
        try {
            return targets.live(backend, nativeBinding, pid);
        } catch (ProcessImageException e) {
            throw Failures.from(e);
        } catch (UnsupportedOperationException e) {
            throw new UserError("cannot open process %d for reading: %s".formatted(pid, e.getMessage()),
                    UserErrorHandler.EXIT_FAILURE);
        }
    }

    /** Where commands get their targets: the run's one source. */
    TargetSource targets() {
        return targets;
    }
}
