package dev.remora.ports.elf;

import java.util.Objects;

/**
 * The fields of an ELF64 file header, decoded as little-endian (the only order Remora reads; check
 * {@link #dataEncoding()} before trusting the others).
 *
 * @param elfClass e_ident[EI_CLASS]: {@link #ELFCLASS64} for 64-bit files
 * @param dataEncoding e_ident[EI_DATA]: {@link #ELFDATA2LSB} for little-endian files
 * @param type e_type, e.g. {@link #ET_CORE}
 * @param machine e_machine, e.g. {@link #EM_X86_64}
 * @param programHeaderCount e_phnum, which may be {@link #PN_XNUM} (the count is then in section header 0)
 */
public record ElfFileHeader(int elfClass, int dataEncoding, int type, int machine,
                            long programHeaderOffset, long sectionHeaderOffset,
                            int programHeaderSize, int programHeaderCount,
                            int sectionHeaderSize, int sectionHeaderCount, int sectionNamesIndex) {

    public static final int SIZE = 64;
    public static final int ELFCLASS64 = 2;
    public static final int ELFDATA2LSB = 1;
    public static final int ET_CORE = 4;
    public static final int EM_X86_64 = 62;
    /** e_phnum's escape: the real count is in section header 0's sh_info. */
    public static final int PN_XNUM = 0xffff;

    /** True when {@code bytes} start with the four ELF magic bytes. */
    public static boolean hasMagic(byte[] bytes) {
        return bytes.length >= 4 && bytes[0] == 0x7f && bytes[1] == 'E' && bytes[2] == 'L' && bytes[3] == 'F';
    }

    /** Decodes the header at the start of {@code bytes}, which must hold at least {@link #SIZE} bytes. */
    public static ElfFileHeader decode(byte[] bytes) {
        Objects.checkFromIndexSize(0, SIZE, bytes.length);
        return new ElfFileHeader(bytes[4] & 0xff, bytes[5] & 0xff, LittleEndian.u16(bytes, 0x10),
                LittleEndian.u16(bytes, 0x12), LittleEndian.u64(bytes, 0x20), LittleEndian.u64(bytes, 0x28),
                LittleEndian.u16(bytes, 0x36), LittleEndian.u16(bytes, 0x38), LittleEndian.u16(bytes, 0x3A),
                LittleEndian.u16(bytes, 0x3C), LittleEndian.u16(bytes, 0x3E));
    }

    /** A 64-bit little-endian file: the only kind whose other fields mean what they say here. */
    public boolean is64BitLittleEndian() {
        return elfClass == ELFCLASS64 && dataEncoding == ELFDATA2LSB;
    }
}
