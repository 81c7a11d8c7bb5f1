package dev.remora.domain.linetable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Tables read from a live process can be torn or garbage: every answer must be a location or
 * NONE, never an exception or an endless walk.
 */
class LineTableMalformedInputTest {

    private static final int FIRST_LINE = 1;

    @Test
    void emptyOrMissingTableHasNoLocation() {
        assertThat(LineTable.locate(new byte[0], 0, FIRST_LINE, 0)).isEqualTo(SourceLocation.NONE);
        assertThat(LineTable.locate(null, 10, FIRST_LINE, 0)).isEqualTo(SourceLocation.NONE);
    }

    @Test
    void indexOutsideTheTableHasNoLocation() {
        byte[] table = new LineTableBuilder().shortForm(4, 0, 1).build();

        assertThat(locate(table, -1)).isEqualTo(SourceLocation.NONE);
        assertThat(locate(table, 4)).isEqualTo(SourceLocation.NONE);
        assertThat(locate(table, Integer.MAX_VALUE)).isEqualTo(SourceLocation.NONE);
        assertThat(locate(table, Integer.MIN_VALUE)).isEqualTo(SourceLocation.NONE);
    }

    @Test
    void lengthIsClampedToTheBuffer() {
        byte[] table = new LineTableBuilder().shortForm(1, 0, 1).build();

        assertThat(LineTable.locate(table, 1000, FIRST_LINE, 0).line()).isEqualTo(1);
        assertThat(LineTable.locate(table, -5, FIRST_LINE, 0)).isEqualTo(SourceLocation.NONE);
    }

    @Test
    void truncatedEntriesHaveNoLocation() {
        byte[] shortForm = new LineTableBuilder().shortForm(1, 0, 1).build();
        byte[] oneLine = new LineTableBuilder().oneLine(1, 1, 5, 6).build();
        byte[] noColumns = new LineTableBuilder().noColumns(1, 1000).build();
        byte[] longForm = new LineTableBuilder().longForm(1, 3, 1, 2, 3).build();

        for (byte[] table : new byte[][] {shortForm, oneLine, noColumns, longForm}) {
            for (int length = 1; length < table.length; length++) {
                assertThat(LineTable.locate(table, length, FIRST_LINE, 0))
                        .as("%s cut to %d bytes", Arrays.toString(table), length)
                        .isEqualTo(SourceLocation.NONE);
            }
        }
    }

    @Test
    void payloadByteWhereAnEntryShouldStartHasNoLocation() {
        byte[] table = new LineTableBuilder().shortForm(2, 0, 1).raw(0x05).shortForm(1, 0, 1).build();

        assertThat(locate(table, 1).line()).isEqualTo(1);
        assertThat(locate(table, 2)).isEqualTo(SourceLocation.NONE);
        assertThat(locate(new byte[] {0x12, 0x34}, 0)).isEqualTo(SourceLocation.NONE);
    }

    @Test
    void entryStartByteInsideAPayloadHasNoLocation() {
        byte[] shortForm = new LineTableBuilder().raw(0x80, 0x80).build();
        byte[] oneLine = new LineTableBuilder().raw(0xD0, 0x01, 0x90).build();
        byte[] varint = new LineTableBuilder().raw(0xE8, 0x41, 0x80).build();

        for (byte[] table : new byte[][] {shortForm, oneLine, varint}) {
            assertThat(locate(table, 0)).as(Arrays.toString(table)).isEqualTo(SourceLocation.NONE);
        }
    }

    @Test
    void overlongVarintsHaveNoLocation() {
        byte[] sevenChunks = new LineTableBuilder().raw(0xE8, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x7F, 0x3F).build();
        byte[] endless = new byte[1_000_000];
        Arrays.fill(endless, (byte) 0x7F);
        endless[0] = (byte) 0xF0;

        assertThat(locate(sevenChunks, 0)).isEqualTo(SourceLocation.NONE);
        assertThat(locate(endless, 0)).isEqualTo(SourceLocation.NONE);
    }

    @Test
    void sixChunkVarintKeepsItsLow32BitsLikeCPython() {
        // Column chunks 1, 0, 0, 0, 0, 6: the sixth lands on bits 30-32 and bit 32 falls off,
        // leaving 2^31 + 1; minus one for the stored offset that is Integer.MIN_VALUE.
        byte[] table = new LineTableBuilder().raw(0xF0, 0x00, 0x00, 0x41, 0x40, 0x40, 0x40, 0x40, 0x06, 0x01).build();

        assertThat(locate(table, 0)).isEqualTo(new SourceLocation(1, 1, Integer.MIN_VALUE, 0));
    }

    @Test
    void randomBytesNeverThrowAndAgreeWithTheEntryWalk() {
        Random random = new Random(20240611L);
        for (int round = 0; round < 20_000; round++) {
            byte[] table = new byte[random.nextInt(40)];
            random.nextBytes(table);
            if (table.length > 0 && random.nextBoolean()) {
                table[0] |= (byte) 0x80;
            }
            SourceLocation[] byEntries = new SourceLocation[400];
            Arrays.fill(byEntries, SourceLocation.NONE);
            assertThatCode(() -> LineTable.forEachEntry(table, table.length, FIRST_LINE,
                    (first, count, location) -> Arrays.fill(byEntries, first, first + count, location)))
                    .doesNotThrowAnyException();
            for (int index = -1; index < byEntries.length; index++) {
                SourceLocation expected = index < 0 ? SourceLocation.NONE : byEntries[index];
                assertThat(locate(table, index)).as("%s at %d", Arrays.toString(table), index).isEqualTo(expected);
            }
        }
    }

    private static SourceLocation locate(byte[] table, int codeUnitIndex) {
        return LineTable.locate(table, table.length, FIRST_LINE, codeUnitIndex);
    }
}
