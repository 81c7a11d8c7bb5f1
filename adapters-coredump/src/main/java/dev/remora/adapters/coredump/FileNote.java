package dev.remora.adapters.coredump;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes NT_FILE: {@code count} and {@code page_size}, then {@code count} triples
 * (start, end, file offset in pages), then {@code count} NUL-terminated paths. Every number is
 * checked against the descriptor's size before use.
 */
final class FileNote {

    private static final int HEADER = 16;
    private static final int ENTRY = 24;
    private static final long MAX_PAGE_SIZE = 1L << 30;
    private static final String DELETED = " (deleted)";
    /** Far above PATH_MAX (4096); a longer "path" is garbage, and must not become a huge string. */
    private static final int MAX_PATH = 1 << 16;

    private FileNote() {}

    static List<FileMapping> read(CoreBytes core, Note note) throws CoreFileException {
        long at = note.descOffset();
        long size = note.descSize();
        if (size < HEADER) {
            throw corrupt(core, "its NT_FILE note has %d bytes, too few for a header".formatted(size));
        }
        long count = core.u64(at);
        long pageSize = core.u64(at + 8);
        if (count < 0 || count > (size - HEADER) / ENTRY) {
            throw corrupt(core, "its NT_FILE note lists %s files but has room for at most %d"
                    .formatted(Long.toUnsignedString(count), (size - HEADER) / ENTRY));
        }
        // The kernel counts offsets in pages; gdb writes a page size of 1 and counts bytes.
        if (pageSize <= 0 || pageSize > MAX_PAGE_SIZE || Long.bitCount(pageSize) != 1) {
            throw corrupt(core, "its NT_FILE note has a page size of " + Long.toUnsignedString(pageSize));
        }
        long names = at + HEADER + count * ENTRY;
        long namesEnd = at + size;
        List<FileMapping> files = new ArrayList<>((int) Math.min(count, 4096));
        for (long i = 0; i < count; i++) {
            long entry = at + HEADER + i * ENTRY;
            long start = core.u64(entry);
            long end = core.u64(entry + 8);
            long pages = core.u64(entry + 16);
            if (Long.compareUnsigned(start, end) >= 0) {
                throw corrupt(core, "NT_FILE entry %d maps 0x%x-0x%x, an empty or reversed range".formatted(i, start, end));
            }
            if (pages < 0 || Math.multiplyHigh(pages, pageSize) != 0 || pages * pageSize < 0) {
                throw corrupt(core, "NT_FILE entry %d has a file offset of %s pages, beyond any file"
                        .formatted(i, Long.toUnsignedString(pages)));
            }
            int length = nameLength(core, names, namesEnd);
            if (length < 0) {
                throw corrupt(core, "NT_FILE path %d of %d has no end within %d bytes".formatted(i + 1, count, MAX_PATH));
            }
            String path = path(core, names, length);
            boolean deleted = path.endsWith(DELETED);
            files.add(new FileMapping(start, end, pages * pageSize,
                    deleted ? path.substring(0, path.length() - DELETED.length()) : path, deleted));
            names += length + 1;
        }
        return files;
    }

    /** Length of the NUL-terminated string at {@code from}, or -1 when no NUL comes before {@code end} or MAX_PATH. */
    private static int nameLength(CoreBytes core, long from, long end) {
        long limit = Math.min(end, from + MAX_PATH + 1);
        for (long p = from; p < limit; p++) {
            if (core.u8(p) == 0) {
                return (int) (p - from);
            }
        }
        return -1;
    }

    private static String path(CoreBytes core, long at, int length) {
        byte[] bytes = new byte[length];
        core.copy(at, bytes, 0, length);
        // Paths are bytes to the kernel; UTF-8 is how the JDK names files on Linux.
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static CoreFileException.Corrupt corrupt(CoreBytes core, String detail) {
        return new CoreFileException.Corrupt(core.name() + " is corrupt: " + detail);
    }
}
