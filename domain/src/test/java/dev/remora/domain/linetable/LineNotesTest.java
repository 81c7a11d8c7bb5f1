package dev.remora.domain.linetable;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** 3.8's and 3.9's co_lnotab on hand-made tables; LineTableConformanceTest checks it on a real standard library. */
class LineNotesTest {

    private static SourceLocation line(int line) {
        return new SourceLocation(line, SourceLocation.ABSENT, SourceLocation.ABSENT, SourceLocation.ABSENT);
    }

    @Test
    void anInstructionIsOnTheLineOfTheLastPairThatDoesNotPassIt() {
        // bytes [0, 4) on line 10, [4, 10) on 12, [10, ...) on 11
        byte[] table = {4, 2, 6, -1};
        assertThat(LineNotes.locate(table, table.length, 10, 0)).isEqualTo(line(10));
        assertThat(LineNotes.locate(table, table.length, 10, 1)).isEqualTo(line(10));
        assertThat(LineNotes.locate(table, table.length, 10, 2)).isEqualTo(line(12));
        assertThat(LineNotes.locate(table, table.length, 10, 4)).isEqualTo(line(12));
        assertThat(LineNotes.locate(table, table.length, 10, 5)).isEqualTo(line(11));
        assertThat(LineNotes.locate(table, table.length, 10, 40)).as("past the table: the last line").isEqualTo(line(11));
    }

    @Test
    void aLineJumpLongerThanAByteTakesPairsWithoutAddress() {
        // line 1 + 127 + 73 = 201 from byte 2 on: the compiler splits the jump into pairs, the first of them at
        // the address and the rest moving no address
        byte[] table = {2, 127, 0, 73};
        assertThat(LineNotes.locate(table, table.length, 1, 0)).isEqualTo(line(1));
        assertThat(LineNotes.locate(table, table.length, 1, 1)).isEqualTo(line(201));
    }

    @Test
    void anAddressJumpLongerThanAByteTakesPairsWithoutLines() {
        // 300 bytes on line 5, then line 6: (255, 0), (45, 1)
        byte[] table = {(byte) 255, 0, 45, 1};
        assertThat(LineNotes.locate(table, table.length, 5, 149)).isEqualTo(line(5));
        assertThat(LineNotes.locate(table, table.length, 5, 150)).isEqualTo(line(6));
    }

    @Test
    void aFrameNotStartedIsOnTheFirstLine() {
        byte[] table = {0, 3};
        assertThat(LineNotes.locate(table, table.length, 7, -1)).isEqualTo(line(7));
    }

    @Test
    void garbageTablesGiveALineWithinWhatThePairsCanMoveAndNeverThrow() {
        java.util.Random random = new java.util.Random(26);
        for (int round = 0; round < 20_000; round++) {
            byte[] table = new byte[random.nextInt(64)];
            random.nextBytes(table);
            int index = random.nextInt(400) - 10;
            int claimed = random.nextInt(80) - 8;
            int line = LineNotes.locate(table, claimed, 100, index).line();
            assertThat(Math.abs(line - 100)).as("%s at %d", java.util.Arrays.toString(table), index)
                    .isLessThanOrEqualTo(128 * table.length / 2);
        }
    }

    @Test
    void anOddLengthOrEmptyTableNeverThrows() {
        assertThat(LineNotes.locate(new byte[] {2}, 1, 1, 0)).isEqualTo(line(1));
        assertThat(LineNotes.locate(new byte[0], 0, 4, 3)).isEqualTo(line(4));
        assertThat(LineNotes.locate(new byte[] {1, 1, 1}, 99, 1, Integer.MAX_VALUE)).isEqualTo(line(2));
    }
}
