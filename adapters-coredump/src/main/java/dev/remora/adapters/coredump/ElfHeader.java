package dev.remora.adapters.coredump;

/**
 * The parts of a core's ELF header this reader uses, after checking that the file is a 64-bit
 * little-endian x86-64 core: the only kind the rest of Remora can interpret.
 *
 * @param programHeaders where the program header table starts
 * @param entrySize the size of one program header (at least {@link ProgramHeader#SIZE})
 * @param count the number of program headers, taken from section header 0 when there are 0xffff or more
 */
record ElfHeader(long programHeaders, int entrySize, long count) {

    static final int SIZE = 64;
    private static final int ELFCLASS64 = 2;
    private static final int ELFDATA2LSB = 1;
    private static final int ET_CORE = 4;
    private static final int EM_X86_64 = 62;
    /** e_phnum's escape: the real count is in section header 0's sh_info. */
    private static final int PN_XNUM = 0xffff;
    private static final int SECTION_HEADER_SIZE = 64;
    private static final int MAX_ENTRY_SIZE = 4096;

    static ElfHeader read(CoreBytes core) throws CoreFileException {
        String name = core.name();
        if (!core.contains(0, 4) || core.u8(0) != 0x7f || core.u8(1) != 'E' || core.u8(2) != 'L' || core.u8(3) != 'F') {
            throw new CoreFileException.NotElf(name + " is not a core file: it does not start with the ELF magic");
        }
        core.require(0, SIZE, "the ELF header");
        if (core.u8(4) != ELFCLASS64) {
            throw new CoreFileException.Unsupported("%s is a %s ELF file; only 64-bit x86-64 cores are supported"
                    .formatted(name, core.u8(4) == 1 ? "32-bit" : "class-" + core.u8(4)));
        }
        if (core.u8(5) != ELFDATA2LSB) {
            throw new CoreFileException.Unsupported("%s is a %s ELF file; only little-endian x86-64 cores are supported"
                    .formatted(name, core.u8(5) == 2 ? "big-endian" : "data-encoding-" + core.u8(5)));
        }
        int type = core.u16(16);
        if (type != ET_CORE) {
            throw new CoreFileException.NotCore("%s is not a core file: it is an ELF %s".formatted(name, typeName(type)));
        }
        int machine = core.u16(18);
        if (machine != EM_X86_64) {
            throw new CoreFileException.Unsupported("%s is a core of another machine (%s); only x86-64 cores are supported"
                    .formatted(name, machineName(machine)));
        }
        long phoff = core.u64(32);
        int entrySize = core.u16(54);
        long count = core.u16(56);
        if (entrySize < ProgramHeader.SIZE || entrySize > MAX_ENTRY_SIZE) {
            throw new CoreFileException.Corrupt("%s is corrupt: program header size %d (expected %d)"
                    .formatted(name, entrySize, ProgramHeader.SIZE));
        }
        if (count == PN_XNUM) {
            count = extendedCount(core);
        }
        if (count == 0) {
            throw new CoreFileException.Corrupt(name + " is corrupt: it has no program headers");
        }
        // count < 2^32 and entrySize <= 4096, so the product cannot overflow.
        core.require(phoff, count * entrySize, "the program header table");
        return new ElfHeader(phoff, entrySize, count);
    }

    /** Cores of processes with 65535 or more mappings keep the program header count in section 0. */
    private static long extendedCount(CoreBytes core) throws CoreFileException {
        long shoff = core.u64(40);
        int shentsize = core.u16(58);
        if (shentsize < SECTION_HEADER_SIZE) {
            throw new CoreFileException.Corrupt("%s is corrupt: e_phnum is PN_XNUM but section header size is %d"
                    .formatted(core.name(), shentsize));
        }
        core.require(shoff, SECTION_HEADER_SIZE, "section header 0 (holding the program header count)");
        return core.u32(shoff + 44);
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
