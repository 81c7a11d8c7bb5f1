package dev.remora.app.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import dev.remora.adapters.coredump.CoreDump;
import dev.remora.adapters.coredump.CoreFileException;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.RemoteMemory;

import java.nio.file.Path;
import java.util.Optional;

/** A process read from its ELF core file; the files it mapped are looked for under the sysroot, if any. */
public final class CoreDumpModule extends AbstractModule {

    private final Path core;
    private final Optional<Path> sysroot;

    public CoreDumpModule(Path core, Optional<Path> sysroot) {
        this.core = core;
        this.sysroot = sysroot;
    }

    @Provides
    @Singleton
    CoreDump dump() throws CoreFileException {
        return CoreDump.open(core, sysroot);
    }

    @Provides
    @Singleton
    ProcessImage image(CoreDump dump) {
        return dump.image();
    }

    @Provides
    @Singleton
    RemoteMemory memory(CoreDump dump) {
        return dump.memory();
    }
}
