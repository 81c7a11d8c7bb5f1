package dev.remora.domain.nativestack;

/**
 * Finds, in one sequence, the row in force at an address: the last row at or below it. Rows of a
 * sequence rise in address, so the run stops at the first row past it.
 */
final class LineRowAt implements LineRows {

    private final long pc;
    private boolean found;
    private long file;
    private long line;

    /** Looks for {@code pc} in a run that resumes after the row {@code from} describes. */
    LineRowAt(long pc, LineState from) {
        this.pc = pc;
        this.found = Long.compareUnsigned(from.address(), pc) <= 0;
        this.file = from.file();
        this.line = from.line();
    }

    boolean found() {
        return found;
    }

    long file() {
        return file;
    }

    long line() {
        return line;
    }

    @Override
    public boolean row(long address, long file, long line, int next) {
        if (Long.compareUnsigned(address, pc) > 0) {
            return !found;
        }
        this.found = true;
        this.file = file;
        this.line = line;
        return true;
    }

    @Override
    public boolean endSequence(long address, int next) {
        return false;
    }

    @Override
    public void defineFile(String name, long directory) {
        // Indexing already added the unit's defined files to its header.
    }
}
