package dev.remora.domain.nativestack;

/** Receives what a line program produces, in program order; a {@code false} answer ends the run. */
interface LineRows {

    /**
     * A row of the line table: from {@code address} on, code is from {@code file} at {@code line}; the
     * next opcode is at section offset {@code next}.
     */
    boolean row(long address, long file, long line, int next);

    /**
     * The end of a sequence: its code ends just before {@code address}; the next sequence's first
     * opcode is at section offset {@code next}.
     */
    boolean endSequence(long address, int next);

    /** A file entry added by the program (DWARF 2 to 4), taking the next file index. */
    void defineFile(String name, long directory);
}
