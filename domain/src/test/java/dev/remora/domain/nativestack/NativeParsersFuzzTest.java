package dev.remora.domain.nativestack;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.remora.ports.ZstdDecoder;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

/**
 * The readers of what C frames come from, on any bytes: ELF files, unwind tables (.eh_frame and
 * .debug_frame), symbol tables, line tables and C++ names. Each gives an answer or its own typed
 * failure ({@link NativeDataException}); nothing else escapes, and nothing hangs or runs away.
 *
 * <p>Under {@code mvn test} each method replays its inputs in NativeParsersFuzzTestInputs/METHOD
 * (real sections cut from libc and a small library gcc built, and names of libstdc++); with
 * {@code JAZZER_FUZZ=1} Jazzer mutates them.
 */
class NativeParsersFuzzTest {

    /** Where the fuzzed sections say they are loaded, and pcs looked up around it. */
    private static final long ADDRESS = 0x2_0000;

    @FuzzTest(maxDuration = "5m")
    void elfFiles(byte[] input) {
        ModuleFile file = ModuleFile.read(new ArrayImage(input), "/fuzzed/lib.so", path -> Optional.empty(), ZstdDecoder.NONE);
        for (long pc = 0; pc < 0x4000; pc += 0x3f1) {
            try {
                file.row(pc);
            } catch (NativeDataException noticed) {
                // The damage was noticed: a walk ends there with the reason.
            }
            file.symbol(pc);
            file.line(pc);
        }
    }

    @FuzzTest(maxDuration = "5m")
    void compressedSections(byte[] input) {
        try {
            // zstd's part goes to a decoder that answers with the data as it is: whatever its size.
            CompressedSection.inflate(input, 1 << 20,
                    (data, offset, length, size) -> Arrays.copyOfRange(data, offset, offset + length));
        } catch (NativeDataException noticed) {
            // Noticed.
        }
    }

    @FuzzTest(maxDuration = "5m")
    void unwindTables(FuzzedDataProvider data) {
        CfiSection.Kind kind = data.consumeBoolean() ? CfiSection.Kind.EH_FRAME : CfiSection.Kind.DEBUG_FRAME;
        byte[] header = data.consumeBytes(data.consumeInt(0, 256));
        CfiSection section = CfiSection.of(kind, data.consumeRemainingAsBytes(), ADDRESS);
        try {
            FdeTable table = header.length == 0 ? FdeScan.scan(section) : EhFrameHeader.read(header, ADDRESS - 0x100, section);
            for (int i = 0; i < Math.min(table.size(), 64); i++) {
                long pc = table.start(i) + i;
                Optional<Fde> fde = table.find(pc);
                if (fde.isPresent()) {
                    CfaInterpreter.rowAt(table.section(), fde.get(), pc);
                }
            }
        } catch (NativeDataException noticed) {
            // Noticed.
        }
    }

    @FuzzTest(maxDuration = "5m")
    void symbolTables(FuzzedDataProvider data) {
        byte[] strings = data.consumeBytes(data.consumeInt(0, 4096));
        SymbolTable table = SymbolTable.of(data.consumeRemainingAsBytes(), strings);
        for (long address = 0; address < 0x4000; address += 0x1f3) {
            table.at(address);
        }
    }

    @FuzzTest(maxDuration = "5m")
    void lineTables(FuzzedDataProvider data) {
        byte[] lineStr = data.consumeBytes(data.consumeInt(0, 256));
        byte[] str = data.consumeBytes(data.consumeInt(0, 256));
        try {
            LineTable table = LineTable.of(data.consumeRemainingAsBytes(), lineStr, str);
            for (long address = 0; address < 0x4000; address += 0x1f3) {
                table.at(address);
            }
        } catch (NativeDataException noticed) {
            // Noticed.
        }
    }

    @FuzzTest(maxDuration = "5m")
    void cxxNames(byte[] input) {
        String name = new String(input, StandardCharsets.ISO_8859_1);
        String shown = CxxNames.demangle(name);
        if (shown.length() > Math.max(name.length(), CxxNames.MAX_DEMANGLED + 64)) {
            throw new IllegalStateException("grew past the bound: " + shown.length());
        }
    }
}
