package dev.remora.adapters.coredump;

/**
 * One file-backed mapping named by the core's NT_FILE note.
 *
 * @param fileOffset in bytes (the note counts in pages; already multiplied out and checked)
 * @param deleted the kernel marked the path " (deleted)": the file was unlinked or replaced after it was mapped
 */
record FileMapping(long start, long end, long fileOffset, String path, boolean deleted) {

    /** The file offset that holds the byte at {@code address}, which this mapping contains. */
    long fileOffsetOf(long address) {
        return fileOffset + (address - start);
    }
}
