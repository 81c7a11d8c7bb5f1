package dev.remora.domain.nativestack;

import dev.remora.ports.MemoryMapping;
import dev.remora.ports.elf.ElfProgramHeader;

import java.util.List;
import java.util.OptionalLong;

/**
 * Where the loader placed an ELF file: the difference between a run-time address and the file's own
 * (link-time) one, found from the PT_LOAD segment whose file bytes the mapping starts in.
 */
final class LoadBias {

    private static final long PAGE = 4096;

    private LoadBias() {}

    static OptionalLong of(List<ElfProgramHeader> programHeaders, MemoryMapping mapping) {
        long offset = mapping.fileOffset();
        for (ElfProgramHeader ph : programHeaders) {
            if (ph.type() != ElfProgramHeader.PT_LOAD || ph.offset() < 0 || ph.fileSize() < 0) {
                continue;
            }
            long first = ph.offset() - Long.remainderUnsigned(ph.offset(), PAGE);
            long end = ph.offset() + Math.max(ph.fileSize(), 1);
            if (offset >= first && offset < end) {
                // The segment's bytes sit at p_vaddr - p_offset + (file offset): the same shift for its whole page range.
                return OptionalLong.of(mapping.start() - offset - (ph.address() - ph.offset()));
            }
        }
        return OptionalLong.empty();
    }
}
