package dev.remora.app.wiring;

import com.google.inject.Module;

import java.util.function.IntFunction;

/** How memory of a live process is read; each choice is one Guice module. */
public enum Backend {
    vmreadv(VmReadvModule::new),
    procmem(ProcMemModule::new);

    private final IntFunction<Module> module;

    Backend(IntFunction<Module> module) {
        this.module = module;
    }

    public Module moduleFor(int pid) {
        return module.apply(pid);
    }
}
