package dev.remora.domain.linetable;

import java.util.List;

/** One code object as the interpreter reported it: its line table and co_positions(). */
record DumpedCode(String file, String qualname, int firstLineNo, byte[] table, int instructionCount,
                  List<PositionRun> runs) {

    /** {@code repeat} consecutive instructions sharing one location. */
    record PositionRun(int repeat, SourceLocation location) {
    }
}
