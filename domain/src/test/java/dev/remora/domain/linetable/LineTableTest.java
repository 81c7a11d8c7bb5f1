package dev.remora.domain.linetable;

import static dev.remora.domain.linetable.SourceLocation.ABSENT;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each entry form, built by hand, decoded to what co_positions() would report. */
class LineTableTest {

    private static final int FIRST_LINE = 10;

    @Test
    void shortFormKeepsTheLineAndSplitsTheColumnBetweenHeadAndPayload() {
        byte[] table = new LineTableBuilder().shortForm(2, 13, 5).shortForm(1, 79, 15).build();

        assertThat(locate(table, 0)).isEqualTo(new SourceLocation(10, 10, 13, 18));
        assertThat(locate(table, 1)).isEqualTo(new SourceLocation(10, 10, 13, 18));
        assertThat(locate(table, 2)).isEqualTo(new SourceLocation(10, 10, 79, 94));
    }

    @Test
    void oneLineFormsMoveTheRunningLineByZeroOneOrTwo() {
        byte[] table = new LineTableBuilder()
                .oneLine(1, 0, 4, 127)
                .oneLine(1, 1, 100, 101)
                .oneLine(1, 2, 0, 0)
                .shortForm(1, 8, 1)
                .build();

        assertThat(locate(table, 0)).isEqualTo(new SourceLocation(10, 10, 4, 127));
        assertThat(locate(table, 1)).isEqualTo(new SourceLocation(11, 11, 100, 101));
        assertThat(locate(table, 2)).isEqualTo(new SourceLocation(13, 13, 0, 0));
        assertThat(locate(table, 3)).isEqualTo(new SourceLocation(13, 13, 8, 9));
    }

    @Test
    void noColumnsFormMovesTheLineBySignedDeltaAndHasNoColumns() {
        byte[] table = new LineTableBuilder().noColumns(1, 40).noColumns(1, -45).build();

        assertThat(locate(table, 0)).isEqualTo(new SourceLocation(50, 50, ABSENT, ABSENT));
        assertThat(locate(table, 1)).isEqualTo(new SourceLocation(5, 5, ABSENT, ABSENT));
    }

    @Test
    void longFormCarriesLineSpanAndWideColumns() {
        byte[] table = new LineTableBuilder()
                .longForm(3, 5000, 3, 200, 4100)
                .longForm(1, -4990, 0, 7, 300)
                .build();

        assertThat(locate(table, 2)).isEqualTo(new SourceLocation(5010, 5013, 200, 4100));
        assertThat(locate(table, 3)).isEqualTo(new SourceLocation(20, 20, 7, 300));
    }

    @Test
    void longFormColumnStoredAsZeroIsAbsent() {
        byte[] table = new LineTableBuilder().longForm(1, 1, 2, -1, -1).build();

        SourceLocation location = locate(table, 0);

        assertThat(location).isEqualTo(new SourceLocation(11, 13, ABSENT, ABSENT));
        assertThat(location.hasLine()).isTrue();
        assertThat(location.hasColumn()).isFalse();
    }

    @Test
    void noLocationEntryHasNoFieldsAndLeavesTheRunningLineAlone() {
        byte[] table = new LineTableBuilder().oneLine(1, 2, 0, 4).noLocation(8).shortForm(1, 0, 3).build();

        assertThat(locate(table, 1)).isEqualTo(SourceLocation.NONE);
        assertThat(locate(table, 8)).isEqualTo(SourceLocation.NONE);
        assertThat(locate(table, 9)).isEqualTo(new SourceLocation(12, 12, 0, 3));
        assertThat(SourceLocation.NONE.hasLine()).isFalse();
        assertThat(SourceLocation.NONE.hasEndLine()).isFalse();
        assertThat(SourceLocation.NONE.hasEndColumn()).isFalse();
    }

    @Test
    void aComputedLineOfMinusOneReadsAsAbsentLikeCPythonReportsIt() {
        byte[] table = new LineTableBuilder().noColumns(1, -1).build();

        assertThat(LineTable.locate(table, table.length, 0, 0).hasLine()).isFalse();
    }

    @Test
    void entriesCoverEightCodeUnitsAtMost() {
        byte[] table = new LineTableBuilder().shortForm(8, 0, 1).shortForm(8, 16, 1).build();

        assertThat(locate(table, 7).column()).isZero();
        assertThat(locate(table, 8).column()).isEqualTo(16);
        assertThat(locate(table, 15).column()).isEqualTo(16);
        assertThat(locate(table, 16)).isEqualTo(SourceLocation.NONE);
    }

    @Test
    void readsOnlyTheGivenLengthOfALargerBuffer() {
        byte[] buffer = new byte[64];
        byte[] table = new LineTableBuilder().shortForm(1, 0, 1).build();
        System.arraycopy(table, 0, buffer, 0, table.length);
        buffer[table.length] = (byte) 0x80; // would be another entry if read

        assertThat(LineTable.locate(buffer, table.length, FIRST_LINE, 0).line()).isEqualTo(10);
        assertThat(LineTable.locate(buffer, table.length, FIRST_LINE, 1)).isEqualTo(SourceLocation.NONE);
    }

    @Test
    void tablesBeyond4096BytesAreReadToTheEnd() {
        LineTableBuilder builder = new LineTableBuilder();
        for (int i = 0; i < 20_000; i++) {
            builder.oneLine(1, 1, 0, 1);
        }
        byte[] table = builder.build();

        assertThat(table.length).isGreaterThan(4096);
        assertThat(locate(table, 19_999).line()).isEqualTo(FIRST_LINE + 20_000);
    }

    @Test
    void forEachEntryReportsEachEntryWithTheCodeUnitsItCovers() {
        byte[] table = new LineTableBuilder().shortForm(2, 1, 1).noLocation(3).noColumns(1, 4).build();
        List<String> entries = new ArrayList<>();

        LineTable.forEachEntry(table, table.length, FIRST_LINE,
                (first, count, location) -> entries.add(first + "+" + count + " " + location));

        assertThat(entries).containsExactly(
                "0+2 " + new SourceLocation(10, 10, 1, 2),
                "2+3 " + SourceLocation.NONE,
                "5+1 " + new SourceLocation(14, 14, ABSENT, ABSENT));
    }

    private static SourceLocation locate(byte[] table, int codeUnitIndex) {
        return LineTable.locate(table, table.length, FIRST_LINE, codeUnitIndex);
    }
}
