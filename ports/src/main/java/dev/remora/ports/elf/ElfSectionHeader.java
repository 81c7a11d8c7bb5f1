package dev.remora.ports.elf;

import java.util.Objects;

/** One ELF64 section header; {@code nameOffset} indexes the section name string table. */
public record ElfSectionHeader(long nameOffset, long type, long flags, long address, long offset, long size, long link,
                               long info) {

    public static final int SIZE = 64;
    public static final long SHT_DYNSYM = 11;
    /** The section's bytes are a compression header ({@code Elf64_Chdr}) and the compressed data. */
    public static final long SHF_COMPRESSED = 0x800;

    /** Decodes the header at {@code at}, which with its {@link #SIZE} bytes must lie inside {@code bytes}. */
    public static ElfSectionHeader decode(byte[] bytes, int at) {
        Objects.checkFromIndexSize(at, SIZE, bytes.length);
        return new ElfSectionHeader(LittleEndian.u32(bytes, at), LittleEndian.u32(bytes, at + 4),
                LittleEndian.u64(bytes, at + 0x08), LittleEndian.u64(bytes, at + 0x10), LittleEndian.u64(bytes, at + 0x18),
                LittleEndian.u64(bytes, at + 0x20), LittleEndian.u32(bytes, at + 0x28), LittleEndian.u32(bytes, at + 0x2C));
    }

    /** Whether the section's bytes are compressed (as {@code objcopy --compress-debug-sections} leaves debug sections). */
    public boolean compressed() {
        return (flags & SHF_COMPRESSED) != 0;
    }
}
