package dev.remora.ports.elf;

import java.util.Objects;

/**
 * One ELF64 program header. For a PT_LOAD, {@code fileSize} bytes of the segment are in the file at
 * {@code offset}; in a core, the rest up to {@code memorySize} were left out of the dump (file-backed
 * text, filtered memory) and must come from elsewhere or not at all.
 */
public record ElfProgramHeader(long type, long flags, long offset, long address, long fileSize, long memorySize,
                               long align) {

    public static final int SIZE = 56;
    public static final long PT_LOAD = 1;
    public static final long PT_NOTE = 4;
    public static final long PF_X = 1;
    public static final long PF_W = 2;
    public static final long PF_R = 4;

    /** Decodes the header at {@code at}, which with its {@link #SIZE} bytes must lie inside {@code bytes}. */
    public static ElfProgramHeader decode(byte[] bytes, int at) {
        Objects.checkFromIndexSize(at, SIZE, bytes.length);
        return new ElfProgramHeader(LittleEndian.u32(bytes, at), LittleEndian.u32(bytes, at + 4),
                LittleEndian.u64(bytes, at + 8), LittleEndian.u64(bytes, at + 16), LittleEndian.u64(bytes, at + 32),
                LittleEndian.u64(bytes, at + 40), LittleEndian.u64(bytes, at + 48));
    }

    /** Address one past the segment's last byte; see {@link #fitsAddressSpace()}. */
    public long end() {
        return address + memorySize;
    }

    /** The segment in memory does not wrap past 2^64 (an end of exactly 2^64 is refused too). */
    public boolean fitsAddressSpace() {
        return Long.compareUnsigned(address + memorySize, address) > 0;
    }

    /** The protection as /proc/PID/maps writes it, private mapping assumed. */
    public String permissions() {
        return ((flags & PF_R) != 0 ? "r" : "-") + ((flags & PF_W) != 0 ? "w" : "-") + ((flags & PF_X) != 0 ? "x" : "-") + "p";
    }

    /** The address a loader maps the segment's page at: {@code address} aligned down to {@code align}. */
    public long alignedAddress() {
        return align > 0 ? address - Long.remainderUnsigned(address, align) : address;
    }
}
