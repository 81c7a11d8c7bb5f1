package dev.remora.domain.linetable;

/**
 * Reads CPython 3.8's and 3.9's {@code co_lnotab} the way their {@code PyCode_Addr2Line} does: byte
 * pairs {@code (address increment, line increment)}, the line increment signed; an instruction is
 * on the running line of the last pair whose address does not pass it. The running line starts at
 * {@code co_firstlineno}. Columns are unknown before 3.11: only the line is given. The table does
 * not say where the bytecode ends, so an index past it is on the last line, as CPython reports it.
 *
 * <p>Malformed tables never throw, and each pair consumes two bytes: a walk is bounded by the table.
 */
public final class LineNotes {

    private LineNotes() {
    }

    /**
     * The line of the instruction at {@code codeUnitIndex} (its byte offset divided by 2). An index
     * below 0 (a frame not started) is on {@code co_firstlineno}, as CPython reports it.
     */
    public static SourceLocation locate(byte[] table, int tableLength, int firstLineNo, int codeUnitIndex) {
        if (codeUnitIndex < 0) {
            return lineOnly(firstLineNo);
        }
        long address = 2L * codeUnitIndex;
        int line = firstLineNo;
        long passed = 0;
        int length = Math.min(tableLength, table.length);
        for (int i = 0; i + 1 < length; i += 2) {
            passed += table[i] & 0xFF;
            if (passed > address) {
                break;
            }
            line += table[i + 1];
        }
        return lineOnly(line);
    }

    private static SourceLocation lineOnly(int line) {
        return new SourceLocation(line, SourceLocation.ABSENT, SourceLocation.ABSENT, SourceLocation.ABSENT);
    }
}
