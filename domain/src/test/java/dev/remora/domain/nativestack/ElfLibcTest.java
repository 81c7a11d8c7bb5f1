package dev.remora.domain.nativestack;

import dev.remora.ports.ZstdDecoder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The host's real libc: its search table, FDEs, rows and exported symbols all decode and agree. */
class ElfLibcTest {

    private static final List<String> FUNCTIONS = List.of("qsort", "memcpy", "malloc", "printf", "pthread_create");

    private static HostLibc libc;

    @BeforeAll
    static void readLibc() {
        libc = HostLibc.load();
    }

    @Test
    void theSearchTableFindsTheFdeCoveringEachWellKnownFunction() throws Exception {
        for (String name : FUNCTIONS) {
            long address = HostLibc.function(name);

            Optional<Fde> fde = libc.ehFrame.find(address);

            assertThat(fde).as(name).isPresent();
            assertThat(fde.get().pcBegin()).as(name).isLessThanOrEqualTo(address);
            assertThat(fde.get().pcEnd()).as(name).isGreaterThan(address);
        }
    }

    @Test
    void everyFdeTheSearchTableListsDecodesWithRowsAtBothEnds() throws Exception {
        FdeTable table = libc.ehFrame;
        assertThat(table.size()).isGreaterThan(1000);
        int enteredByCall = 0;
        for (int i = 0; i < table.size(); i++) {
            Fde fde = table.fde(i);
            assertThat(fde.pcBegin()).isEqualTo(table.start(i));
            assertThat(fde.pcEnd()).isGreaterThan(fde.pcBegin());
            UnwindRow first = CfaInterpreter.rowAt(table.section(), fde, fde.pcBegin());
            CfaInterpreter.rowAt(table.section(), fde, fde.pcEnd() - 1);
            if (first.cfa().equals(new CfaRule.RegisterOffset(7, 8)) && first.rule(16).equals(new RegisterRule.Offset(-8))) {
                enteredByCall++;
            }
        }
        // At a function's first instruction only its return address is on the stack; the PLT's, the
        // signal trampoline's and a few assembly functions' FDEs are the exceptions.
        assertThat(enteredByCall).isGreaterThan(table.size() * 95 / 100);
    }

    @Test
    void aLinearScanOfEhFrameFindsTheSameFdesAsTheSearchTable() throws Exception {
        FdeTable scanned = FdeScan.scan(libc.ehFrame.section());

        assertThat(scanned.size()).isEqualTo(libc.ehFrame.size());
        for (int i = 0; i < scanned.size(); i++) {
            assertThat(scanned.start(i)).isEqualTo(libc.ehFrame.start(i));
        }
    }

    @Test
    void exportedSymbolsNameTheFunctionContainingAnAddress() {
        long qsort = HostLibc.function("qsort");

        Optional<Symbol> inside = libc.dynamicSymbols.at(qsort + 5);

        assertThat(inside).map(Symbol::name).contains("qsort");
        assertThat(inside).map(Symbol::start).contains(qsort);
        assertThat(libc.dynamicSymbols.at(0x10)).isEmpty();
    }

    @Test
    void theModuleFileOfLibcGivesRowsAndSymbolsByLinkTimeAddress() throws Exception {
        ModuleFile file = ModuleFile.read(new FileImage(HostFiles.open(HostFiles.LIBC).orElseThrow()), HostFiles.LIBC,
                HostFiles::open, ZstdDecoder.NONE);
        long malloc = HostLibc.function("malloc");

        assertThat(file.problem()).isEmpty();
        assertThat(file.row(malloc)).isPresent();
        assertThat(file.symbol(malloc + 1)).map(Symbol::name).contains("malloc");
    }
}
