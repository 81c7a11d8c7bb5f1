package dev.remora.app.wiring;

import dev.remora.adapters.coredump.CoreDump;
import dev.remora.adapters.coredump.CoreFileException;
import dev.remora.adapters.procmem.ProcMemMemory;
import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.NativeBinding;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.RemoteMemory;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/** The adapters Remora ships: /proc for a live process's image, either backend for its memory, ELF cores. */
public final class AdapterTargets implements TargetSource {

    /**
     * Binds the default way of reading a live process's memory (process_vm_readv through FFM) before a
     * command needs it: linking the call is a good part of what a start costs.
     */
    public static void prepareDefault() {
        NativeBinding.ffm.isSupported();
    }

    @Override
    public TargetPorts live(Backend backend, NativeBinding binding, int pid) throws ProcessImageException {
        Objects.requireNonNull(binding, "binding");
        ProcessImage image = ProcfsProcessImage.of(pid);
        RemoteMemory memory = switch (backend) {
            case vmreadv -> VmReadvMemory.open(pid, binding);
            case procmem -> ProcMemMemory.open(pid);
        };
        return new TargetPorts(image, memory);
    }

    @Override
    public CoreDump core(Path core, Optional<Path> sysroot) throws CoreFileException {
        return CoreDump.open(core, sysroot);
    }
}
