package dev.remora.domain.nativestack;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Function symbols by address, on hand-written ELF64 symbol entries. */
class SymbolTableTest {

    private static final int FUNC = 2;
    private static final int NOTYPE = 0;
    private static final int OBJECT = 1;
    private static final int GLOBAL = 1 << 4;
    private static final int LOCAL = 0;

    private final ByteArrayOutputStream entries = new ByteArrayOutputStream();
    private final ByteArrayOutputStream strings = new ByteArrayOutputStream();

    SymbolTableTest() {
        strings.write(0);
        entries.writeBytes(new byte[24]); // entry 0 is always the null symbol
    }

    private SymbolTableTest symbol(String name, int info, long value, long size) {
        long nameOffset = strings.size();
        strings.writeBytes((name + "\0").getBytes(StandardCharsets.US_ASCII));
        CfiAssembler.u32(entries, nameOffset);
        entries.write(info);
        entries.write(0);
        entries.write(14); // a section index: defined here
        entries.write(0);
        for (long v : new long[] {value, size}) {
            CfiAssembler.u32(entries, v);
            CfiAssembler.u32(entries, v >>> 32);
        }
        return this;
    }

    private SymbolTable table() {
        return SymbolTable.of(entries.toByteArray(), strings.toByteArray());
    }

    @Test
    void anAddressGetsTheFunctionContainingIt() {
        SymbolTable table = symbol("first", GLOBAL | FUNC, 0x1000, 0x10).symbol("second", LOCAL | FUNC, 0x1020, 0x20).table();

        assertThat(table.at(0x1000)).map(Symbol::name).contains("first");
        assertThat(table.at(0x100f)).map(Symbol::name).contains("first");
        assertThat(table.at(0x1025)).map(Symbol::name).contains("second");
        assertThat(table.at(0x0fff)).isEmpty();
        assertThat(table.at(0x1010)).as("padding between functions").isEmpty();
        assertThat(table.at(0x1040)).isEmpty();
    }

    @Test
    void aSymbolVersionIsNotPartOfTheName() {
        SymbolTable table = symbol("clock_nanosleep@GLIBC_2.2.5", GLOBAL | FUNC, 0x1000, 0x40).table();

        assertThat(table.at(0x1010)).map(Symbol::name).contains("clock_nanosleep");
    }

    @Test
    void aCxxFunctionIsNamedAsGdbShowsIt() {
        SymbolTable table = symbol("_ZN5numpy6detail4sortIdEEvPT_m@@LIB_1.0", GLOBAL | FUNC, 0x1000, 0x40).table();

        assertThat(table.at(0x1010)).map(Symbol::name).contains("void numpy::detail::sort<double>(double*, unsigned long)");
    }

    @Test
    void aSizelessFunctionCoversUpToTheNextSymbol() {
        SymbolTable table = symbol("_start", GLOBAL | FUNC, 0x1000, 0).symbol("next", GLOBAL | FUNC, 0x1100, 0x10).table();

        assertThat(table.at(0x10ff)).map(Symbol::name).contains("_start");
    }

    @Test
    void dataAndSizelessUntypedSymbolsAreNotFunctions() {
        SymbolTable table = symbol("table", GLOBAL | OBJECT, 0x1000, 0x100).symbol("label", GLOBAL | NOTYPE, 0x1000, 0)
                .symbol("asm_function", GLOBAL | NOTYPE, 0x2000, 0x10).table();

        assertThat(table.at(0x1000)).isEmpty();
        assertThat(table.at(0x2004)).map(Symbol::name).contains("asm_function");
    }

    @Test
    void ofAliasesThePublicGlobalNameWins() {
        SymbolTable table = symbol("__libc_malloc", GLOBAL | FUNC, 0x1000, 0x40).symbol("malloc_local", LOCAL | FUNC, 0x1000, 0x40)
                .symbol("malloc", GLOBAL | FUNC, 0x1000, 0x40).table();

        assertThat(table.at(0x1001)).map(Symbol::name).contains("malloc");
        assertThat(table.size()).isEqualTo(1);
    }

    @Test
    void aNestedFunctionLeavesItsEnclosingOneFoundAroundIt() {
        SymbolTable table = symbol("outer", GLOBAL | FUNC, 0x1000, 0x100).symbol("inner", LOCAL | FUNC, 0x1040, 0x10).table();

        assertThat(table.at(0x1044)).map(Symbol::name).contains("inner");
        assertThat(table.at(0x1060)).map(Symbol::name).contains("outer");
    }
}
