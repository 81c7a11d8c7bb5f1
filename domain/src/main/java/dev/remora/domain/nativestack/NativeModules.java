package dev.remora.domain.nativestack;

import dev.remora.ports.FileBytes;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ZstdDecoder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The executable mappings of a process and their ELF files. Each file is read on first use, once
 * however many mappings or threads need it, and its tables are kept. The kernel's {@code [vdso]}
 * has no file: its image is read from the target's memory. Files of deleted mappings are not opened
 * (the file under that name now may not be the code that runs), nor are other anonymous or kernel
 * mappings: their frames fall back to frame pointers. Safe for concurrent use.
 */
public final class NativeModules {

    static final String VDSO = "[vdso]";

    private final List<MemoryMapping> mappings;
    private final List<Module> modules;
    private final Map<String, ModuleFile> files;
    private final Function<String, Optional<FileBytes>> opener;
    private final RemoteMemory memory;
    private final ZstdDecoder zstd;

    private NativeModules(List<MemoryMapping> mappings, Function<String, Optional<FileBytes>> opener, RemoteMemory memory,
                          ZstdDecoder zstd, Map<String, ModuleFile> files) {
        this.files = files;
        this.zstd = zstd;
        this.opener = opener;
        this.memory = memory;
        List<MemoryMapping> sorted = new ArrayList<>(mappings);
        // Unsigned: [vsyscall] lies at the top of the address space, negative as a long.
        sorted.sort((a, b) -> Long.compareUnsigned(a.start(), b.start()));
        this.mappings = List.copyOf(sorted);
        List<Module> code = new ArrayList<>();
        for (MemoryMapping m : this.mappings) {
            // gdb's gcore writes a library's text as read-only, not executable: any read-only file mapping may hold code.
            boolean executable = m.permissions().length() > 2 && m.permissions().charAt(2) == 'x';
            if (executable || (m.path().isPresent() && !m.path().get().startsWith("[") && !m.writable())) {
                code.add(new Module(m, () -> fileOf(m, opener, memory)));
            }
        }
        this.modules = List.copyOf(code);
    }

    /**
     * @param mappings the target's mappings, as /proc/PID/maps or a core lists them
     * @param files opens a file by the path the target names it by; called at most once per path
     *     (and per debug file candidate), and every file it returns is closed after reading
     * @param memory the target's memory, for the vDSO's image
     * @param zstd decompresses the sections files keep compressed with zstd
     */
    public static NativeModules of(List<MemoryMapping> mappings, Function<String, Optional<FileBytes>> files,
                                   RemoteMemory memory, ZstdDecoder zstd) {
        return new NativeModules(mappings, files, memory, zstd, new ConcurrentHashMap<>());
    }

    /**
     * The process's mappings as they are now (libraries loaded or unloaded since), keeping the files
     * already read: a file is read again only under a path not seen before.
     */
    public NativeModules withMappings(List<MemoryMapping> now) {
        return new NativeModules(now, opener, memory, zstd, files);
    }

    /** The executable mapping containing {@code address}. */
    Optional<Module> moduleAt(long address) {
        int lo = 0;
        int hi = modules.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            MemoryMapping m = modules.get(mid).mapping();
            if (Long.compareUnsigned(address, m.start()) < 0) {
                hi = mid - 1;
            } else if (Long.compareUnsigned(address, m.end()) >= 0) {
                lo = mid + 1;
            } else {
                return Optional.of(modules.get(mid));
            }
        }
        return Optional.empty();
    }

    /** The mapping of any kind containing {@code address}. */
    Optional<MemoryMapping> mappingAt(long address) {
        int lo = 0;
        int hi = mappings.size() - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            MemoryMapping m = mappings.get(mid);
            if (Long.compareUnsigned(address, m.start()) < 0) {
                hi = mid - 1;
            } else if (Long.compareUnsigned(address, m.end()) >= 0) {
                lo = mid + 1;
            } else {
                return Optional.of(m);
            }
        }
        return Optional.empty();
    }

    private ModuleFile fileOf(MemoryMapping m, Function<String, Optional<FileBytes>> opener, RemoteMemory memory) {
        if (m.path().isEmpty()) {
            return ModuleFile.unreadable("anonymous mapping 0x%x-0x%x".formatted(m.start(), m.end()));
        }
        String path = m.path().get();
        if (path.equals(VDSO)) {
            return files.computeIfAbsent(VDSO + "@" + Long.toHexString(m.start()),
                    k -> read(new MemoryImage(memory, m.start(), m.size()), path, opener));
        }
        if (path.startsWith("[")) {
            return ModuleFile.unreadable(path + " has no file");
        }
        if (m.deleted()) {
            return ModuleFile.unreadable(path + " was deleted since it was mapped");
        }
        return files.computeIfAbsent(path, p -> open(p, opener));
    }

    private ModuleFile open(String path, Function<String, Optional<FileBytes>> opener) {
        Optional<FileBytes> opened;
        try {
            opened = opener.apply(path);
        } catch (RuntimeException e) {
            return ModuleFile.unreadable(path + " cannot be opened: " + e.getMessage());
        }
        if (opened.isEmpty()) {
            return ModuleFile.unreadable(path + " cannot be opened");
        }
        try (FileBytes file = opened.get()) {
            return read(new FileImage(file), path, opener);
        }
    }

    private ModuleFile read(ImageBytes image, String path, Function<String, Optional<FileBytes>> opener) {
        try {
            return ModuleFile.read(image, path, opener, zstd);
        } catch (RuntimeException e) {
            // Whatever a damaged file breaks, its module just has no tables; the walk says so.
            return ModuleFile.unreadable(path + ": " + e);
        }
    }
}
