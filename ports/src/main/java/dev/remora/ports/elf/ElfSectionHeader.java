package dev.remora.ports.elf;

import java.util.Objects;

/** One ELF64 section header; {@code nameOffset} indexes the section name string table. */
public record ElfSectionHeader(long nameOffset, long type, long address, long offset, long size, long link, long info) {

    public static final int SIZE = 64;
    public static final long SHT_DYNSYM = 11;

    /** Decodes the header at {@code at}, which with its {@link #SIZE} bytes must lie inside {@code bytes}. */
    public static ElfSectionHeader decode(byte[] bytes, int at) {
        Objects.checkFromIndexSize(at, SIZE, bytes.length);
        return new ElfSectionHeader(LittleEndian.u32(bytes, at), LittleEndian.u32(bytes, at + 4),
                LittleEndian.u64(bytes, at + 0x10), LittleEndian.u64(bytes, at + 0x18), LittleEndian.u64(bytes, at + 0x20),
                LittleEndian.u32(bytes, at + 0x28), LittleEndian.u32(bytes, at + 0x2C));
    }
}
