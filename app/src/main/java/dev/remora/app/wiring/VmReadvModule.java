package dev.remora.app.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.NativeBinding;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.RemoteMemory;

import java.util.Objects;

/** A live process read with process_vm_readv through the chosen native binding; its image comes from /proc. */
public final class VmReadvModule extends AbstractModule {

    private final int pid;
    private final NativeBinding binding;

    public VmReadvModule(int pid, NativeBinding binding) {
        this.pid = pid;
        this.binding = Objects.requireNonNull(binding, "binding");
    }

    @Provides
    @Singleton
    ProcessImage image() throws ProcessImageException {
        return ProcfsProcessImage.of(pid);
    }

    @Provides
    @Singleton
    RemoteMemory memory() {
        return VmReadvMemory.open(pid, binding);
    }
}
