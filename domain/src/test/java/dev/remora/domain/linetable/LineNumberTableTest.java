package dev.remora.domain.linetable;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** 3.10's line table on hand-made tables; LineTableConformanceTest checks it on a real standard library. */
class LineNumberTableTest {

    private static SourceLocation line(int line) {
        return new SourceLocation(line, SourceLocation.ABSENT, SourceLocation.ABSENT, SourceLocation.ABSENT);
    }

    @Test
    void rangesCarryTheRunningLine() {
        // bytes [0, 4) on line 10, [4, 10) on line 12, [10, 12) on line 11
        byte[] table = {4, 0, 6, 2, 2, -1};
        assertThat(LineNumberTable.locate(table, table.length, 10, 1)).isEqualTo(line(10));
        assertThat(LineNumberTable.locate(table, table.length, 10, 2)).isEqualTo(line(12));
        assertThat(LineNumberTable.locate(table, table.length, 10, 5)).isEqualTo(line(11));
        assertThat(LineNumberTable.locate(table, table.length, 10, 6)).as("past the table").isEqualTo(SourceLocation.NONE);
    }

    @Test
    void aRangeWithoutALineStillMovesTheAddress() {
        // [0, 2) line 5, [2, 6) no line, [6, 8) line 6: the range without a line must not shift the next ones
        byte[] table = {2, 0, 4, -128, 2, 1};
        assertThat(LineNumberTable.locate(table, table.length, 5, 1)).isEqualTo(SourceLocation.NONE);
        assertThat(LineNumberTable.locate(table, table.length, 5, 3)).isEqualTo(line(6));
    }

    @Test
    void aFrameNotStartedIsOnTheFirstLine() {
        byte[] table = {2, 3};
        assertThat(LineNumberTable.locate(table, table.length, 7, -1)).isEqualTo(line(7));
    }

    @Test
    void anOddLengthOrEmptyTableNeverThrows() {
        assertThat(LineNumberTable.locate(new byte[] {2}, 1, 1, 0)).isEqualTo(SourceLocation.NONE);
        assertThat(LineNumberTable.locate(new byte[0], 0, 1, 0)).isEqualTo(SourceLocation.NONE);
    }
}
