package dev.remora.adapters.coredump;

import dev.remora.ports.elf.ElfFileHeader;
import dev.remora.ports.elf.ElfProgramHeader;
import dev.remora.ports.elf.ElfSectionHeader;

import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a core's ELF header this reader uses, after checking that the file is a 64-bit
 * little-endian x86-64 core: the only kind the rest of Remora can interpret.
 *
 * @param programHeaders where the program header table starts
 * @param entrySize the size of one program header (at least {@link ElfProgramHeader#SIZE})
 * @param count the number of program headers, taken from section header 0 when there are 0xffff or more
 */
record ElfHeader(long programHeaders, int entrySize, long count) {

    private static final int MAX_ENTRY_SIZE = 4096;

    static ElfHeader read(CoreBytes core) throws CoreFileException {
        String name = core.name();
        byte[] magic = new byte[4];
        if (core.contains(0, 4)) {
            core.copy(0, magic, 0, 4);
        }
        if (!ElfFileHeader.hasMagic(magic)) {
            throw new CoreFileException.NotElf(name + " is not a core file: it does not start with the ELF magic");
        }
        core.require(0, ElfFileHeader.SIZE, "the ELF header");
        byte[] bytes = new byte[ElfFileHeader.SIZE];
        core.copy(0, bytes, 0, bytes.length);
        ElfFileHeader eh = ElfFileHeader.decode(bytes);
        if (eh.elfClass() != ElfFileHeader.ELFCLASS64) {
            throw new CoreFileException.Unsupported("%s is a %s ELF file; only 64-bit x86-64 cores are supported"
                    .formatted(name, eh.elfClass() == 1 ? "32-bit" : "class-" + eh.elfClass()));
        }
        if (eh.dataEncoding() != ElfFileHeader.ELFDATA2LSB) {
            throw new CoreFileException.Unsupported("%s is a %s ELF file; only little-endian x86-64 cores are supported"
                    .formatted(name, eh.dataEncoding() == 2 ? "big-endian" : "data-encoding-" + eh.dataEncoding()));
        }
        if (eh.type() != ElfFileHeader.ET_CORE) {
            throw new CoreFileException.NotCore("%s is not a core file: it is an ELF %s".formatted(name, typeName(eh.type())));
        }
        if (eh.machine() != ElfFileHeader.EM_X86_64) {
            throw new CoreFileException.Unsupported("%s is a core of another machine (%s); only x86-64 cores are supported"
                    .formatted(name, machineName(eh.machine())));
        }
        int entrySize = eh.programHeaderSize();
        long count = eh.programHeaderCount();
        if (entrySize < ElfProgramHeader.SIZE || entrySize > MAX_ENTRY_SIZE) {
            throw new CoreFileException.Corrupt("%s is corrupt: program header size %d (expected %d)"
                    .formatted(name, entrySize, ElfProgramHeader.SIZE));
        }
        if (count == ElfFileHeader.PN_XNUM) {
            count = extendedCount(core, eh);
        }
        if (count == 0) {
            throw new CoreFileException.Corrupt(name + " is corrupt: it has no program headers");
        }
        long phoff = eh.programHeaderOffset();
        // count < 2^32 and entrySize <= 4096, so the product cannot overflow.
        core.require(phoff, count * entrySize, "the program header table");
        return new ElfHeader(phoff, entrySize, count);
    }

    /** Every program header; the table's bounds were checked by {@link #read}. */
    List<ElfProgramHeader> programHeaders(CoreBytes core) {
        // The table lies inside the file, so count is bounded by the file's size.
        List<ElfProgramHeader> all = new ArrayList<>((int) Math.min(count, 1 << 16));
        byte[] entry = new byte[ElfProgramHeader.SIZE];
        for (long i = 0; i < count; i++) {
            core.copy(programHeaders + i * entrySize, entry, 0, entry.length);
            all.add(ElfProgramHeader.decode(entry, 0));
        }
        return all;
    }

    /** Cores of processes with 65535 or more mappings keep the program header count in section 0. */
    private static long extendedCount(CoreBytes core, ElfFileHeader eh) throws CoreFileException {
        long shoff = eh.sectionHeaderOffset();
        int shentsize = eh.sectionHeaderSize();
        if (shentsize < ElfSectionHeader.SIZE) {
            throw new CoreFileException.Corrupt("%s is corrupt: e_phnum is PN_XNUM but section header size is %d"
                    .formatted(core.name(), shentsize));
        }
        core.require(shoff, ElfSectionHeader.SIZE, "section header 0 (holding the program header count)");
        byte[] zero = new byte[ElfSectionHeader.SIZE];
        core.copy(shoff, zero, 0, zero.length);
        return ElfSectionHeader.decode(zero, 0).info();
    }

    private static String typeName(int type) {
        return switch (type) {
            case 0 -> "file of no type (ET_NONE)";
            case 1 -> "relocatable object (ET_REL)";
            case 2 -> "executable (ET_EXEC)";
            case 3 -> "shared object or executable (ET_DYN)";
            default -> "file of type " + type;
        };
    }

    private static String machineName(int machine) {
        return switch (machine) {
            case 3 -> "i386";
            case 40 -> "ARM";
            case 183 -> "AArch64";
            case 243 -> "RISC-V";
            case 21 -> "PowerPC64";
            case 22 -> "S/390";
            default -> "e_machine " + machine;
        };
    }
}
