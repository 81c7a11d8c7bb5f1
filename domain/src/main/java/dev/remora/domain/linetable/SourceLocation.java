package dev.remora.domain.linetable;

/**
 * Source span of one instruction, field for field what {@code code.co_positions()} yields:
 * 1-based lines, 0-based columns counted in UTF-8 bytes, end column exclusive.
 *
 * <p>{@link #ABSENT} (-1) marks a field CPython reports as {@code None}. CPython stores an
 * absent field as -1 and turns exactly that value into {@code None}, so the mapping is
 * one-to-one.
 */
public record SourceLocation(int line, int endLine, int column, int endColumn) {

    public static final int ABSENT = -1;

    /** An instruction without any source position (compiler-synthesised code). */
    public static final SourceLocation NONE = new SourceLocation(ABSENT, ABSENT, ABSENT, ABSENT);

    public boolean hasLine() {
        return line != ABSENT;
    }

    public boolean hasEndLine() {
        return endLine != ABSENT;
    }

    public boolean hasColumn() {
        return column != ABSENT;
    }

    public boolean hasEndColumn() {
        return endColumn != ABSENT;
    }
}
