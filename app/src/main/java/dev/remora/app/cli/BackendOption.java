package dev.remora.app.cli;

import com.google.inject.Module;
import dev.remora.adapters.vmreadv.NativeBinding;
import dev.remora.app.wiring.Backend;
import picocli.CommandLine.Option;

/** {@code --backend} and, for vmreadv, {@code --native-binding}: how a live target's memory is read. */
public final class BackendOption {
    @Option(names = "--backend", paramLabel = "vmreadv|procmem", defaultValue = "vmreadv",
            description = "How to read the target's memory: process_vm_readv (default) or /proc/PID/mem.")
    Backend backend;

    @Option(names = "--native-binding", paramLabel = "ffm|jna|jnr", defaultValue = "ffm",
            description = "Which native binding calls process_vm_readv (default: ffm); only for --backend vmreadv.")
    NativeBinding nativeBinding;

    /** Rejects a binding for a backend that calls no native function; checked before any target starts. */
    void validate() {
        if (nativeBinding != NativeBinding.ffm && backend != Backend.vmreadv) {
            throw new UserError("--native-binding %s applies only with --backend vmreadv, not %s"
                    .formatted(nativeBinding, backend), UserErrorHandler.EXIT_USAGE);
        }
    }

    /** The module that reads process {@code pid} as chosen. */
    Module moduleFor(int pid) {
        validate();
        return backend.moduleFor(pid, nativeBinding);
    }
}
