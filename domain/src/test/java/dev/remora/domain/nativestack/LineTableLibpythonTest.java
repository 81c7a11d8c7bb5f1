package dev.remora.domain.nativestack;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DWARF 5 line table of a real CPython build. The expected lines are what {@code addr2line -e
 * libpython3.12.so.1.0 -a ADDRESS} printed for the same file; its paths keep the compiler's
 * {@code /./}, which the table drops.
 */
class LineTableLibpythonTest {

    private static final long TIME_SLEEP = 0x364ae0;
    private static final long PY_LONG_FROM_LONG = 0x1a7120;

    private static HostLibpython libpython;
    private static LineTable table;

    @BeforeAll
    static void readTheLineTable() throws Exception {
        libpython = HostLibpython.load();
        table = libpython.lineTable();
    }

    @Test
    void theTestAddressesAreTheFunctionsTheyAreNamedFor() {
        assertThat(libpython.symbols.at(TIME_SLEEP)).map(Symbol::name).contains("time_sleep");
        assertThat(libpython.symbols.at(PY_LONG_FROM_LONG)).map(Symbol::name).contains("PyLong_FromLong");
    }

    @Test
    void theFirstInstructionOfTimeSleepIsItsOpeningLine() {
        Optional<SourceLine> line = table.at(TIME_SLEEP);

        assertThat(line).map(SourceLine::line).contains(416);
        assertThat(line.orElseThrow().file()).endsWith("/Python-3.12.1/Modules/timemodule.c")
                .startsWith("/tmp/python-build.").doesNotContain("/./");
    }

    @Test
    void addressesInsideTimeSleepGiveTheInnermostRowIncludingInlinedCallees() {
        assertThat(table.at(0x364b00)).map(SourceLine::line).contains(420);
        assertThat(table.at(0x364b0c)).map(SourceLine::line).contains(1174);
        assertThat(table.at(0x364b40)).map(SourceLine::line).contains(2204);
        assertThat(table.at(0x364b46)).map(SourceLine::line).contains(2180);
        assertThat(table.at(0x364bbf)).map(SourceLine::line).contains(419);
        for (long pc : new long[] {0x364b00, 0x364b0c, 0x364b40, 0x364b46, 0x364bbf}) {
            assertThat(table.at(pc).orElseThrow().file()).endsWith("/Python-3.12.1/Modules/timemodule.c");
        }
    }

    @Test
    void ofSeveralRowsAtOneAddressTheLastIsInForce() {
        assertThat(table.at(PY_LONG_FROM_LONG)).map(SourceLine::line).contains(296);
        assertThat(table.at(0x1186f0)).map(SourceLine::line).contains(73);
        assertThat(table.at(0x1186f0).orElseThrow().file()).endsWith("/Python-3.12.1/Modules/getbuildinfo.c");
    }

    @Test
    void anAddressBetweenRowsHasTheLineOfTheRowBelowIt() {
        assertThat(table.at(0x1a7124)).map(SourceLine::line).contains(302);
        assertThat(table.at(0x1186f7)).map(SourceLine::line).contains(74);
        assertThat(table.at(0x1a7124).orElseThrow().file()).endsWith("/Python-3.12.1/Objects/longobject.c");
    }

    @Test
    void codeInlinedFromAHeaderIsInThatHeader() {
        Optional<SourceLine> compact = table.at(0x1a71a8);
        Optional<SourceLine> decref = table.at(0x118c48);

        assertThat(compact).map(SourceLine::line).contains(222);
        assertThat(compact.orElseThrow().file()).endsWith("/Python-3.12.1/Include/internal/pycore_long.h");
        assertThat(decref).map(SourceLine::line).contains(243);
        assertThat(decref.orElseThrow().file()).endsWith("/Python-3.12.1/Include/object.h");
    }

    @Test
    void aFileInAnAbsoluteDirectoryKeepsThatDirectory() {
        assertThat(table.at(0x149890)).contains(new SourceLine("/usr/include/ctype.h", 209));
    }

    @Test
    void addressesWithoutLineInformationHaveNoSourceLine() {
        assertThat(table.at(0x106030)).isEmpty(); // the PLT
        assertThat(table.at(0x10)).isEmpty();
        assertThat(table.at(-1L)).isEmpty();
    }

    @Test
    void aRepeatedLookupGivesTheSameAnswer() {
        Optional<SourceLine> first = table.at(TIME_SLEEP + 0x20);

        assertThat(table.at(TIME_SLEEP + 0x20)).isEqualTo(first).isPresent();
    }
}
