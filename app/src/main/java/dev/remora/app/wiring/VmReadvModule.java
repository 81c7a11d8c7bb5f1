package dev.remora.app.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.RemoteMemory;

/** A live process read with process_vm_readv; its image comes from /proc. */
public final class VmReadvModule extends AbstractModule {

    private final int pid;

    public VmReadvModule(int pid) {
        this.pid = pid;
    }

    @Provides
    @Singleton
    ProcessImage image() throws ProcessImageException {
        return ProcfsProcessImage.of(pid);
    }

    @Provides
    @Singleton
    RemoteMemory memory() {
        return VmReadvMemory.open(pid);
    }
}
