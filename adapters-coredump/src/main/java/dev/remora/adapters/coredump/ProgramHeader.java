package dev.remora.adapters.coredump;

import java.util.ArrayList;
import java.util.List;

/**
 * One program header of a core. For a PT_LOAD, {@code fileSize} bytes of the segment are in the
 * core at {@code offset}; the rest up to {@code memorySize} were left out of the dump (file-backed
 * text, filtered memory) and must come from elsewhere or not at all.
 */
record ProgramHeader(long type, long flags, long offset, long address, long fileSize, long memorySize, long align) {

    static final int SIZE = 56;
    static final long PT_LOAD = 1;
    static final long PT_NOTE = 4;
    static final long PF_X = 1;
    static final long PF_W = 2;
    static final long PF_R = 4;

    /** Reads every program header; the table's bounds were checked by {@link ElfHeader#read}. */
    static List<ProgramHeader> readAll(CoreBytes core, ElfHeader header) {
        // The table lies inside the file, so count is bounded by the file's size.
        List<ProgramHeader> all = new ArrayList<>((int) Math.min(header.count(), 1 << 16));
        for (long i = 0; i < header.count(); i++) {
            long at = header.programHeaders() + i * header.entrySize();
            all.add(new ProgramHeader(core.u32(at), core.u32(at + 4), core.u64(at + 8), core.u64(at + 16),
                    core.u64(at + 32), core.u64(at + 40), core.u64(at + 48)));
        }
        return all;
    }

    /** Address one past the segment's last byte; the caller checked that it does not wrap. */
    long end() {
        return address + memorySize;
    }

    /** The segment in memory does not wrap past 2^64 (an end of exactly 2^64 is refused too). */
    boolean fitsAddressSpace() {
        return Long.compareUnsigned(address + memorySize, address) > 0;
    }

    String permissions() {
        return ((flags & PF_R) != 0 ? "r" : "-") + ((flags & PF_W) != 0 ? "w" : "-") + ((flags & PF_X) != 0 ? "x" : "-") + "p";
    }
}
