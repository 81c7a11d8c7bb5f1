package dev.remora.domain.linetable;

/**
 * Reads CPython 3.10's {@code co_linetable} (PEP 626) the way {@code code.co_lines()} and
 * {@code PyCode_Addr2Line} do: byte pairs {@code (sd, ld)}, each a range of {@code sd} bytes of
 * bytecode whose line is the running line plus {@code ld}, or none when {@code ld} is -128 (the
 * running line then stays). The running line starts at {@code co_firstlineno}. Columns are unknown
 * in 3.10: only the line is given.
 *
 * <p>Malformed tables never throw, and each pair consumes two bytes: a walk is bounded by the table.
 */
public final class LineNumberTable {

    private static final int NO_LINE = -128;

    private LineNumberTable() {
    }

    /**
     * The line of the instruction at {@code codeUnitIndex} (its byte offset divided by 2). An index
     * below 0 (a frame not started) is on {@code co_firstlineno}, as CPython reports it; past the
     * table, or in a range with no line, {@link SourceLocation#NONE}.
     */
    public static SourceLocation locate(byte[] table, int tableLength, int firstLineNo, int codeUnitIndex) {
        if (codeUnitIndex < 0) {
            return lineOnly(firstLineNo);
        }
        long address = 2L * codeUnitIndex;
        int line = firstLineNo;
        long start = 0;
        int length = Math.min(tableLength, table.length);
        for (int i = 0; i + 1 < length; i += 2) {
            int size = table[i] & 0xFF;
            int delta = table[i + 1];
            long end = start + size;
            if (delta != NO_LINE) {
                line += delta;
            }
            if (address >= start && address < end) {
                return delta == NO_LINE ? SourceLocation.NONE : lineOnly(line);
            }
            start = end;
        }
        return SourceLocation.NONE;
    }

    private static SourceLocation lineOnly(int line) {
        return new SourceLocation(line, SourceLocation.ABSENT, SourceLocation.ABSENT, SourceLocation.ABSENT);
    }
}
