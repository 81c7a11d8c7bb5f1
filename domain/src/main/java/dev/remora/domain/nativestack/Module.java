package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryMapping;

import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * One executable mapping and the ELF file behind it, read on first use. Its file's link-time
 * addresses are run-time addresses minus {@link #bias()}.
 */
final class Module {

    private final MemoryMapping mapping;
    private final Optional<String> library;
    private final Supplier<ModuleFile> reader;
    private volatile Loaded loaded;

    private record Loaded(ModuleFile file, OptionalLong bias) {}

    Module(MemoryMapping mapping, Supplier<ModuleFile> reader) {
        this.mapping = mapping;
        this.library = mapping.path().map(p -> p.substring(p.lastIndexOf('/') + 1));
        this.reader = reader;
    }

    MemoryMapping mapping() {
        return mapping;
    }

    Optional<String> path() {
        return mapping.path();
    }

    Optional<String> library() {
        return library;
    }

    ModuleFile file() {
        return loaded().file();
    }

    /** Run-time minus link-time address; empty when no PT_LOAD segment places the mapping. */
    OptionalLong bias() {
        return loaded().bias();
    }

    private Loaded loaded() {
        Loaded l = loaded;
        if (l == null) {
            synchronized (this) {
                l = loaded;
                if (l == null) {
                    ModuleFile file = reader.get();
                    l = new Loaded(file, LoadBias.of(file.programHeaders(), mapping));
                    loaded = l;
                }
            }
        }
        return l;
    }

    /** Names the module in a message: its path, or the mapping's range when it has none. */
    String describe() {
        return mapping.path().orElse("anonymous mapping 0x%x-0x%x".formatted(mapping.start(), mapping.end()));
    }
}
