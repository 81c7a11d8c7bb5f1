package dev.remora.app.wiring;

import com.google.inject.Module;
import dev.remora.adapters.vmreadv.NativeBinding;

import java.util.function.BiFunction;

/** How memory of a live process is read; each choice is one Guice module. */
public enum Backend {
    vmreadv(VmReadvModule::new),
    procmem((pid, binding) -> new ProcMemModule(pid));

    private final BiFunction<Integer, NativeBinding, Module> module;

    Backend(BiFunction<Integer, NativeBinding, Module> module) {
        this.module = module;
    }

    /** The module for process {@code pid}; {@code binding} is what vmreadv calls its system call with. */
    public Module moduleFor(int pid, NativeBinding binding) {
        return module.apply(pid, binding);
    }
}
