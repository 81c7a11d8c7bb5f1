package dev.remora.app.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.remora.adapters.procmem.ProcMemMemory;
import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.RemoteMemory;

/** A live process read through positional reads of /proc/PID/mem. */
public final class ProcMemModule extends AbstractModule {

    private final int pid;

    public ProcMemModule(int pid) {
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
        return ProcMemMemory.open(pid);
    }
}
