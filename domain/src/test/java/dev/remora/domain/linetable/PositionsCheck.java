package dev.remora.domain.linetable;

import dev.remora.domain.linetable.DumpedCode.PositionRun;
import dev.remora.domain.offsets.LineTableFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Compares LineTable with co_positions() for every instruction of the code objects fed to it,
 * through both locate and forEachEntry, keeping the first mismatches for the report; for 3.10,
 * LineNumberTable with the lines of co_lines(); for 3.8 and 3.9, LineNotes with those of dis.findlinestarts().
 */
final class PositionsCheck {

    private static final int MISMATCHES_KEPT = 20;
    private static final int TABLE_BYTES_SHOWN = 64;

    private final List<String> firstMismatches = new ArrayList<>();
    private long mismatches;
    private long codeObjects;
    private long instructions;
    private final LineTableFormat format;

    PositionsCheck(LineTableFormat format) {
        this.format = format;
    }

    void check(DumpedCode code) {
        codeObjects++;
        instructions += code.instructionCount();
        SourceLocation[] expected = expand(code);
        if (expected.length != code.instructionCount()) {
            mismatch(code, -1, code.instructionCount() + " instructions", expected.length + " in runs");
            return;
        }
        byte[] table = code.table();
        for (int index = 0; index < expected.length; index++) {
            SourceLocation actual = format.locate(table, table.length, code.firstLineNo(), index);
            if (!actual.equals(expected[index])) {
                mismatch(code, index, expected[index], actual);
            }
        }
        // co_lnotab does not say where the bytecode ends: past it, CPython 3.8 and 3.9 give the last line.
        SourceLocation pastEnd = format.locate(table, table.length, code.firstLineNo(), expected.length);
        if (format != LineTableFormat.LINE_NOTES && !pastEnd.equals(SourceLocation.NONE)) {
            mismatch(code, expected.length, SourceLocation.NONE, pastEnd);
        }
        if (format == LineTableFormat.LOCATIONS) {
            checkEntries(code, expected);
        }
    }

    private void checkEntries(DumpedCode code, SourceLocation[] expected) {
        int[] covered = {0};
        LineTable.forEachEntry(code.table(), code.table().length, code.firstLineNo(), (first, count, location) -> {
            for (int index = first; index < first + count; index++) {
                if (index >= expected.length || !location.equals(expected[index])) {
                    mismatch(code, index, index < expected.length ? expected[index] : "nothing", location);
                }
            }
            covered[0] = first + count;
        });
        if (covered[0] != expected.length) {
            mismatch(code, covered[0], "entries up to " + expected.length, "entries up to " + covered[0]);
        }
    }

    private static SourceLocation[] expand(DumpedCode code) {
        int total = 0;
        for (PositionRun run : code.runs()) {
            total += run.repeat();
        }
        SourceLocation[] positions = new SourceLocation[total];
        int index = 0;
        for (PositionRun run : code.runs()) {
            Arrays.fill(positions, index, index + run.repeat(), run.location());
            index += run.repeat();
        }
        return positions;
    }

    private void mismatch(DumpedCode code, int index, Object expected, Object actual) {
        mismatches++;
        if (firstMismatches.size() < MISMATCHES_KEPT) {
            firstMismatches.add(code.file() + " " + code.qualname() + " (first line " + code.firstLineNo()
                    + ", table " + describe(code.table()) + ") at code unit " + index
                    + ": co_positions " + expected + ", parsed " + actual);
        }
    }

    private static String describe(byte[] table) {
        return table.length <= TABLE_BYTES_SHOWN
                ? HexFormat.of().formatHex(table)
                : table.length + " bytes";
    }

    void add(PositionsCheck other) {
        mismatches += other.mismatches;
        codeObjects += other.codeObjects;
        instructions += other.instructions;
        other.firstMismatches.stream()
                .limit(MISMATCHES_KEPT - firstMismatches.size())
                .forEach(firstMismatches::add);
    }

    long mismatches() {
        return mismatches;
    }

    List<String> firstMismatches() {
        return List.copyOf(firstMismatches);
    }

    long codeObjects() {
        return codeObjects;
    }

    long instructions() {
        return instructions;
    }
}
