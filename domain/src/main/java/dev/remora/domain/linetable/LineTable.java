package dev.remora.domain.linetable;

import java.util.Objects;

/**
 * Reads a code object's {@code co_linetable} (the location table of CPython 3.11 and later)
 * the way {@code code.co_positions()} does.
 *
 * <p>The table is a run of entries, each covering 1 to 8 consecutive code units (2-byte
 * instruction slots, caches included). An entry starts with the only byte of the entry that
 * has its high bit set: bits 3-6 hold the form, bits 0-2 the code-unit count minus one.
 * Lines are deltas against a running line that starts at {@code co_firstlineno}; the
 * "no location" form reports no line and leaves the running line untouched.
 *
 * <p>Malformed tables never throw: the walk stops at the first bad entry and the answer is
 * {@link SourceLocation#NONE}. Each entry consumes at least one byte, so a walk is bounded
 * by the table length.
 */
public final class LineTable {

    private static final int ENTRY_START = 0x80;
    private static final int LAST_SHORT_FORM = 9;
    private static final int ONE_LINE_FORM_0 = 10;
    private static final int ONE_LINE_FORM_2 = 12;
    private static final int NO_COLUMNS_FORM = 13;
    private static final int LONG_FORM = 14;

    /** Receives the entries of a table in order. */
    @FunctionalInterface
    public interface EntryVisitor {
        void visit(int firstCodeUnit, int codeUnitCount, SourceLocation location);
    }

    private LineTable() {
    }

    /**
     * Location of the instruction at {@code codeUnitIndex} (byte offset in {@code co_code}
     * divided by 2), reading {@code table[0, tableLength)}. {@link SourceLocation#NONE} when the
     * index is negative or past the table, or the table is malformed up to that index.
     * Allocates nothing but the returned location.
     */
    public static SourceLocation locate(byte[] table, int tableLength, int firstLineNo, int codeUnitIndex) {
        if (codeUnitIndex < 0) {
            return SourceLocation.NONE;
        }
        return walk(table, tableLength, firstLineNo, codeUnitIndex, null);
    }

    /**
     * Hands every entry of {@code table[0, tableLength)} to {@code visitor}, stopping silently
     * before the first malformed one.
     */
    public static void forEachEntry(byte[] table, int tableLength, int firstLineNo, EntryVisitor visitor) {
        Objects.requireNonNull(visitor, "visitor");
        walk(table, tableLength, firstLineNo, -1, visitor);
    }

    /**
     * The one decoder behind both entry points: returns the location of the entry covering
     * {@code target}, or NONE; reports each entry to {@code visitor} when there is one.
     */
    private static SourceLocation walk(byte[] table, int tableLength, int firstLineNo, int target,
                                       EntryVisitor visitor) {
        // A null table is what a failed remote read leaves behind: treat it as empty.
        int limit = table == null ? 0 : Math.min(Math.max(tableLength, 0), table.length);
        int offset = 0;
        int runningLine = firstLineNo;
        int firstCodeUnit = 0;
        while (offset < limit) {
            int head = table[offset++] & 0xFF;
            if ((head & ENTRY_START) == 0) {
                return SourceLocation.NONE;
            }
            int form = (head >> 3) & 0xF;
            int codeUnitCount = (head & 7) + 1;
            int line = runningLine;
            int endLine = runningLine;
            int column;
            int endColumn;
            if (form <= LAST_SHORT_FORM) {
                // Same line; the column's top bits are the form, its low 3 bits and the
                // width sit in the next byte.
                int b = payloadByte(table, offset++, limit);
                if (b < 0) {
                    return SourceLocation.NONE;
                }
                column = (form << 3) | (b >> 4);
                endColumn = column + (b & 0xF);
            } else if (form <= ONE_LINE_FORM_2) {
                int columnByte = payloadByte(table, offset++, limit);
                int endColumnByte = payloadByte(table, offset++, limit);
                if (columnByte < 0 || endColumnByte < 0) {
                    return SourceLocation.NONE;
                }
                runningLine += form - ONE_LINE_FORM_0;
                line = endLine = runningLine;
                column = columnByte;
                endColumn = endColumnByte;
            } else if (form == NO_COLUMNS_FORM) {
                long delta = Varint.read(table, offset, limit);
                if (delta == Varint.MALFORMED) {
                    return SourceLocation.NONE;
                }
                offset = Varint.next(delta);
                runningLine += Varint.signed(Varint.value(delta));
                line = endLine = runningLine;
                column = endColumn = SourceLocation.ABSENT;
            } else if (form == LONG_FORM) {
                long delta = Varint.read(table, offset, limit);
                long span = Varint.read(table, Varint.next(delta), limit);
                long columnPlusOne = Varint.read(table, Varint.next(span), limit);
                long endColumnPlusOne = Varint.read(table, Varint.next(columnPlusOne), limit);
                if (endColumnPlusOne == Varint.MALFORMED) {
                    return SourceLocation.NONE;
                }
                offset = Varint.next(endColumnPlusOne);
                runningLine += Varint.signed(Varint.value(delta));
                line = runningLine;
                endLine = runningLine + Varint.value(span);
                // Columns are stored plus one so that 0 can mean "absent", i.e. -1.
                column = Varint.value(columnPlusOne) - 1;
                endColumn = Varint.value(endColumnPlusOne) - 1;
            } else {
                // Form 15, no location: every field absent, and the running line stays put.
                line = endLine = column = endColumn = SourceLocation.ABSENT;
            }
            if (visitor != null) {
                visitor.visit(firstCodeUnit, codeUnitCount, new SourceLocation(line, endLine, column, endColumn));
            } else if (target - firstCodeUnit < codeUnitCount) {
                return new SourceLocation(line, endLine, column, endColumn);
            }
            firstCodeUnit += codeUnitCount;
        }
        return SourceLocation.NONE;
    }

    /** The byte at {@code offset}, or -1 past the table or where the next entry already starts. */
    private static int payloadByte(byte[] table, int offset, int limit) {
        if (offset >= limit) {
            return -1;
        }
        int b = table[offset] & 0xFF;
        return (b & ENTRY_START) == 0 ? b : -1;
    }
}
