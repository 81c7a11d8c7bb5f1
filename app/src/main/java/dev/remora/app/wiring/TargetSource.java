package dev.remora.app.wiring;

import dev.remora.adapters.coredump.CoreDump;
import dev.remora.adapters.coredump.CoreFileException;
import dev.remora.adapters.vmreadv.NativeBinding;
import dev.remora.ports.ProcessImageException;

import java.nio.file.Path;
import java.util.Optional;

/** Opens what commands read: running processes through a backend, and core files. */
public interface TargetSource {

    /**
     * The ports of running process {@code pid}, read through {@code backend} ({@code binding} is what
     * vmreadv calls its system call with).
     */
    TargetPorts live(Backend backend, NativeBinding binding, int pid) throws ProcessImageException;

    /** A core file; the files it mapped are looked for under {@code sysroot}, if any. */
    CoreDump core(Path core, Optional<Path> sysroot) throws CoreFileException;
}
