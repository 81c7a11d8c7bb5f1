package dev.remora.adapters.coredump;

import dev.remora.ports.elf.ElfProgramHeader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Splits a core's PT_NOTE segments into notes, refusing any note that claims bytes past its segment. */
final class Notes {

    private static final int HEADER = 12;

    private Notes() {}

    static List<Note> read(CoreBytes core, List<ElfProgramHeader> headers) throws CoreFileException {
        List<Note> notes = new ArrayList<>();
        for (ElfProgramHeader h : headers) {
            if (h.type() == ElfProgramHeader.PT_NOTE) {
                core.require(h.offset(), h.fileSize(), "a note segment");
                readSegment(core, h, notes);
            }
        }
        return notes;
    }

    private static void readSegment(CoreBytes core, ElfProgramHeader segment, List<Note> notes) throws CoreFileException {
        // Linux writes core notes 4-byte aligned; 8 only where the segment says so (GNU property notes).
        long align = segment.align() == 8 ? 8 : 4;
        long start = segment.offset();
        long size = segment.fileSize();
        long at = 0;
        // Each note takes at least HEADER bytes, so the loop ends after at most size / HEADER notes.
        while (size - at >= HEADER) {
            long nameSize = core.u32(start + at);
            long descSize = core.u32(start + at + 4);
            long type = core.u32(start + at + 8);
            long nameAt = at + HEADER;
            // Sizes are below 2^32 and offsets below 2^63, so these sums cannot overflow.
            long descAt = alignUp(nameAt + nameSize, align);
            long next = alignUp(descAt + descSize, align);
            if (descAt + descSize > size) {
                throw new CoreFileException.Corrupt("%s is corrupt: the note at offset %d (name %d bytes, descriptor %d bytes)"
                        .formatted(core.name(), start + at, nameSize, descSize) + " runs past the end of its segment");
            }
            notes.add(new Note(name(core, start + nameAt, nameSize), type, start + descAt, descSize));
            at = Math.min(next, size);
        }
    }

    /** The owner name without its terminating NUL. */
    private static String name(CoreBytes core, long offset, long size) {
        int length = (int) Math.min(size, 256);
        byte[] bytes = new byte[length];
        core.copy(offset, bytes, 0, length);
        int end = 0;
        while (end < length && bytes[end] != 0) {
            end++;
        }
        return new String(bytes, 0, end, StandardCharsets.US_ASCII);
    }

    private static long alignUp(long value, long align) {
        return (value + align - 1) & -align;
    }
}
