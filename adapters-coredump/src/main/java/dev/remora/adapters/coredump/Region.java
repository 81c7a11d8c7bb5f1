package dev.remora.adapters.coredump;

import dev.remora.ports.elf.ElfProgramHeader;
import dev.remora.ports.MemoryMapping;

import java.util.Optional;

/**
 * A stretch of the target's address space over which one segment and one file mapping apply. Either
 * may be missing, not both: gdb writes no segment for file text it leaves out, and anonymous memory
 * has no file. Nullable fields rather than Optionals because every memory read looks at them.
 *
 * @param load the PT_LOAD covering this stretch, or null
 * @param file the NT_FILE mapping covering it, or null
 */
record Region(long start, long end, ElfProgramHeader load, FileMapping file) {

    boolean contains(long address) {
        return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
    }

    /** As /proc/PID/maps would show it. Without a segment the permissions are unknown; the file makes it readable. */
    MemoryMapping toMapping() {
        String permissions = load != null ? load.permissions() : "r--p";
        long fileOffset = file != null ? file.fileOffsetOf(start) : 0;
        Optional<String> path = file != null ? Optional.of(file.path()) : Optional.empty();
        return new MemoryMapping(start, end, permissions, fileOffset, path, file != null && file.deleted());
    }
}
