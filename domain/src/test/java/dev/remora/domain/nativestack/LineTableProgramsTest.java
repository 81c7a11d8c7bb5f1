package dev.remora.domain.nativestack;

import dev.remora.domain.nativestack.LineProgramAssembler.FileEntry;
import dev.remora.domain.nativestack.LineProgramAssembler.Unit5;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Hand-assembled line programs of DWARF 2 to 5, whose every row is known. */
class LineTableProgramsTest {

    private static final byte[] NONE = new byte[0];

    /**
     * Two sequences: 0x1000..0x1030 and 0x2000..0x2010, with a third at address 0 that the linker
     * discarded. Files 1 to 3 from the header, 4 defined by the program.
     */
    private static LineTable version4() throws NativeDataException {
        byte[] unit = new LineProgramAssembler()
                .setAddress(0x1000).advanceLine(9).copy()                        // 0x1000 main.c:10
                .special(4, 1)                                                   // 0x1004 main.c:11
                .setFile(2).advanceLine(89).fixedAdvancePc(0x10).copy()          // 0x1014 src/util.h:100
                .constAddPc().setFile(1).advanceLine(-50).setColumn(3).copy()    // 0x1025 main.c:50
                .defineFile("gen.c", 1)
                .setFile(4).advancePc(3).setDiscriminator(2).negateStmt().copy() // 0x1028 src/gen.c:50
                .prologueEnd().special(0, 5)                                     // 0x1028 src/gen.c:55
                .advancePc(8).endSequence()                                      // end 0x1030
                .setAddress(0x2000).setFile(4).copy()                            // 0x2000 src/gen.c:1
                .setFile(3).special(2, 7)                                        // 0x2002 /usr/include/stdio.h:8
                .extended(0x80, new byte[] {1, 2, 3})
                .special(6, 0)                                                   // 0x2008 stdio.h:8
                .advancePc(8).endSequence()                                      // end 0x2010
                .setAddress(0).copy().advancePc(0x40).endSequence()
                .unit4(4, List.of("src", "/usr/include"),
                        List.of(new FileEntry("main.c", 0), new FileEntry("util.h", 1), new FileEntry("stdio.h", 2)));
        return LineTable.of(unit, NONE, NONE);
    }

    @Test
    void eachAddressHasTheLastRowAtOrBelowIt() throws Exception {
        LineTable table = version4();

        assertThat(table.at(0x1000)).contains(new SourceLine("main.c", 10));
        assertThat(table.at(0x1003)).contains(new SourceLine("main.c", 10));
        assertThat(table.at(0x1004)).contains(new SourceLine("main.c", 11));
        assertThat(table.at(0x1013)).contains(new SourceLine("main.c", 11));
        assertThat(table.at(0x2008)).contains(new SourceLine("/usr/include/stdio.h", 8));
    }

    @Test
    void setFileAndFixedAdvancePcMoveToAHeaderInARelativeDirectory() throws Exception {
        LineTable table = version4();

        assertThat(table.at(0x1014)).contains(new SourceLine("src/util.h", 100));
        assertThat(table.at(0x1024)).contains(new SourceLine("src/util.h", 100));
    }

    @Test
    void constAddPcAdvancesTheAddressOfTheLargestSpecialOpcode() throws Exception {
        LineTable table = version4();

        // (255 - 13) / 14 = 17: from 0x1014 to 0x1025.
        assertThat(table.at(0x1025)).contains(new SourceLine("main.c", 50));
        assertThat(table.at(0x1027)).contains(new SourceLine("main.c", 50));
    }

    @Test
    void ofRowsAtOneAddressTheLastIsInForce() throws Exception {
        LineTable table = version4();

        assertThat(table.at(0x1028)).contains(new SourceLine("src/gen.c", 55));
        assertThat(table.at(0x102f)).contains(new SourceLine("src/gen.c", 55));
    }

    @Test
    void aFileTheProgramDefinesNamesRowsOfLaterSequencesToo() throws Exception {
        LineTable table = version4();

        assertThat(table.at(0x2000)).contains(new SourceLine("src/gen.c", 1));
        assertThat(table.at(0x2001)).contains(new SourceLine("src/gen.c", 1));
    }

    @Test
    void anUnknownExtendedOpcodeIsSkippedByItsLength() throws Exception {
        LineTable table = version4();

        assertThat(table.at(0x2002)).contains(new SourceLine("/usr/include/stdio.h", 8));
        assertThat(table.at(0x200f)).contains(new SourceLine("/usr/include/stdio.h", 8));
    }

    @Test
    void theEndOfASequenceAndTheGapsAroundItHaveNoLine() throws Exception {
        LineTable table = version4();

        assertThat(table.at(0xfff)).isEmpty();
        assertThat(table.at(0x1030)).isEmpty();
        assertThat(table.at(0x1fff)).isEmpty();
        assertThat(table.at(0x2010)).isEmpty();
        assertThat(table.at(-1L)).isEmpty();
    }

    @Test
    void aSequenceAtAddressZeroIsDropped() throws Exception {
        LineTable table = version4();

        assertThat(table.at(0)).isEmpty();
        assertThat(table.at(0x20)).isEmpty();
        assertThat(table.sequences()).isEqualTo(2);
    }

    /** The compilation directory, a directory under it, and one elsewhere; file 0 is the primary source. */
    private static Unit5 version5(int offsetSize) {
        return new LineProgramAssembler()
                .setAddress(0x40_1000).copy()                   // 0x401000 file 1, line 1
                .setFile(0).advanceLine(4).special(3, 0)        // 0x401003 file 0, line 5
                .setFile(2).special(5, 1)                       // 0x401008 ./x.h under lib, line 6
                .setFile(3).special(2, 1)                       // 0x40100a y.h under /opt/inc, line 7
                .setFile(4).special(2, 1)                       // 0x40100c /abs/z.h, line 8
                .setFile(9).special(2, 1)                       // 0x40100e no such file
                .advancePc(2).endSequence()                     // end 0x401010
                .unit5(List.of("/build", "lib", "/opt/inc"), List.of(new FileEntry("main.c", 0),
                        new FileEntry("main.c", 0), new FileEntry("./x.h", 1), new FileEntry("y.h", 2),
                        new FileEntry("/abs/z.h", 1)), offsetSize);
    }

    @Test
    void version5CountsFilesFromZeroAndPutsRelativeDirectoriesUnderTheCompilationDirectory() throws Exception {
        Unit5 unit = version5(4);

        LineTable table = LineTable.of(unit.debugLine(), unit.debugLineStr(), unit.debugStr());

        assertThat(table.at(0x40_1000)).contains(new SourceLine("/build/main.c", 1));
        assertThat(table.at(0x40_1003)).contains(new SourceLine("/build/main.c", 5));
        assertThat(table.at(0x40_1008)).contains(new SourceLine("/build/lib/x.h", 6));
        assertThat(table.at(0x40_100a)).contains(new SourceLine("/opt/inc/y.h", 7));
        assertThat(table.at(0x40_100c)).contains(new SourceLine("/abs/z.h", 8));
    }

    @Test
    void aRowNamingNoFileOfItsUnitHasNoSourceLine() throws Exception {
        Unit5 unit = version5(4);

        LineTable table = LineTable.of(unit.debugLine(), unit.debugLineStr(), unit.debugStr());

        assertThat(table.at(0x40_100e)).isEmpty();
        assertThat(table.at(0x40_1010)).isEmpty();
    }

    @Test
    void a64BitUnitReadsLikeA32BitOne() throws Exception {
        Unit5 unit = version5(8);

        LineTable table = LineTable.of(unit.debugLine(), unit.debugLineStr(), unit.debugStr());

        assertThat(table.at(0x40_1003)).contains(new SourceLine("/build/main.c", 5));
        assertThat(table.at(0x40_1009)).contains(new SourceLine("/build/lib/x.h", 6));
    }

    @Test
    void withOpcodeBaseTenOfDwarf2OpcodesTenToTwelveAreSpecial() throws Exception {
        for (int version : new int[] {2, 3}) {
            byte[] unit = new LineProgramAssembler(10)
                    .setAddress(0x5000).advanceLine(10).copy()   // 0x5000 line 11
                    .raw(12)                                    // special 2: address + 0, line - 3
                    .special(1, 1)                              // 0x5001 line 9
                    .raw(10)                                    // special 0: address + 0, line - 5
                    .advancePc(1).endSequence()
                    .unit4(version, List.of(), List.of(new FileEntry("a.c", 0)));

            LineTable table = LineTable.of(unit, NONE, NONE);

            assertThat(table.at(0x5000)).as("version %d", version).contains(new SourceLine("a.c", 8));
            assertThat(table.at(0x5001)).as("version %d", version).contains(new SourceLine("a.c", 4));
        }
    }

    @Test
    void aStandardOpcodeNewerThanTheReaderIsSkippedByItsDeclaredOperands() throws Exception {
        byte[] unit = new LineProgramAssembler(14)
                .setAddress(0x6000).copy()
                .raw(13, 0xff, 0x7f, 0x03)                      // opcode 13, two LEB128 operands
                .special(4, 2)
                .advancePc(4).endSequence()
                .unit4(4, List.of(), List.of(new FileEntry("b.c", 0)));

        LineTable table = LineTable.of(unit, NONE, NONE);

        assertThat(table.at(0x6004)).contains(new SourceLine("b.c", 3));
    }

    @Test
    void aLongSequenceResumedFromItsIndexedPointsGivesEveryRowAsARunFromItsStart() throws Exception {
        LineProgramAssembler program = new LineProgramAssembler().setAddress(0x10_0000).advanceLine(999).copy();
        int rows = 20_000;
        int[] lines = new int[rows + 1];
        int[] files = new int[rows + 1];
        int line = 1000;
        int file = 1;
        lines[0] = line;
        files[0] = 1;
        for (int i = 1; i <= rows; i++) {
            if (i % 97 == 0) {
                file = file % 3 + 1;
                program.setFile(file);
            }
            int step = i % 7 - 3;
            line += step;
            program.special(1, step);
            lines[i] = line;
            files[i] = file;
        }
        byte[] unit = program.advancePc(1).endSequence().unit4(4, List.of(),
                List.of(new FileEntry("1.c", 0), new FileEntry("2.c", 0), new FileEntry("3.c", 0)));

        LineTable table = LineTable.of(unit, NONE, NONE);

        for (int i = 0; i <= rows; i++) {
            assertThat(table.at(0x10_0000 + i)).as("row %d", i).contains(new SourceLine(files[i] + ".c", lines[i]));
        }
        assertThat(table.at(0x10_0000 + rows + 1)).isEmpty();
    }

    @Test
    void aUnitOfAnUnknownVersionIsSkippedAndTheNextOneRead() throws Exception {
        byte[] good = new LineProgramAssembler().setAddress(0x7000).copy().advancePc(4).endSequence()
                .unit4(3, List.of(), List.of(new FileEntry("c.c", 0)));
        byte[] bad = good.clone();
        bad[4] = 9;

        LineTable table = LineTable.of(LineProgramAssembler.concat(bad, good), NONE, NONE);

        assertThat(table.at(0x7000)).contains(new SourceLine("c.c", 1));
        assertThat(table.sequences()).isEqualTo(1);
    }

    @Test
    void aUnitWithAFormOfUnknownSizeIsSkipped() throws Exception {
        Unit5 unit = version5(4);
        byte[] damaged = unit.debugLine().clone();
        int vendorForm = indexOf(damaged, new byte[] {(byte) 0x81, 0x40, LineForms.BLOCK}) + 2;
        damaged[vendorForm] = 0x7f;

        assertThatThrownBy(() -> LineTable.of(damaged, unit.debugLineStr(), unit.debugStr()))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("form 0x7f");
        LineTable both = LineTable.of(LineProgramAssembler.concat(damaged, unit.debugLine()), unit.debugLineStr(),
                unit.debugStr());
        assertThat(both.at(0x40_1003)).contains(new SourceLine("/build/main.c", 5));
        assertThat(both.sequences()).isEqualTo(1);
    }

    @Test
    void aSequenceItsUnitDoesNotEndCoversNothing() throws Exception {
        byte[] unit = new LineProgramAssembler()
                .setAddress(0x8000).copy().advancePc(4).endSequence()
                .setAddress(0x9000).copy().special(4, 1)
                .unit4(4, List.of(), List.of(new FileEntry("d.c", 0)));

        LineTable table = LineTable.of(unit, NONE, NONE);

        assertThat(table.at(0x8000)).contains(new SourceLine("d.c", 1));
        assertThat(table.at(0x9000)).isEmpty();
        assertThat(table.at(0x9004)).isEmpty();
    }

    @Test
    void aSectionWithoutOneReadableUnitIsRefusedAndAnEmptyOneHasNoLines() throws Exception {
        byte[] unit = new LineProgramAssembler().setAddress(0x7000).copy().advancePc(4).endSequence()
                .unit4(4, List.of(), List.of(new FileEntry("c.c", 0)));
        byte[] cut = Arrays.copyOf(unit, unit.length - 1);

        assertThatThrownBy(() -> LineTable.of(cut, NONE, NONE)).isInstanceOf(NativeDataException.class);
        assertThat(LineTable.of(NONE, NONE, NONE).at(0x7000)).isEmpty();
    }

    @Test
    void aTableOfMoreSequencesThanItsLimitIsRefused() throws Exception {
        LineProgramAssembler program = new LineProgramAssembler();
        for (int i = 0; i < 100; i++) {
            program.advancePc(0x1000).copy().advancePc(1).endSequence();
        }
        byte[] unit = program.unit4(4, List.of(), List.of(new FileEntry("e.c", 0)));

        assertThat(LineTable.of(unit, NONE, NONE, 100).sequences()).isEqualTo(100);
        assertThatThrownBy(() -> LineTable.of(unit, NONE, NONE, 99))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("more than 99");
    }

    private static int indexOf(byte[] haystack, byte[] needle) {
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            if (Arrays.equals(haystack, i, i + needle.length, needle, 0, needle.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }
}
