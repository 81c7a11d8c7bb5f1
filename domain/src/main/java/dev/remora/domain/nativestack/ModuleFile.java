package dev.remora.domain.nativestack;

import dev.remora.ports.FileBytes;
import dev.remora.ports.ZstdDecoder;
import dev.remora.ports.elf.ElfProgramHeader;
import dev.remora.ports.elf.ElfSectionHeader;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The unwind tables and symbols of one ELF image, read once, in the image's link-time addresses.
 * A separate debug file is looked for only when the image has no {@code .symtab} and a lookup
 * needs what it could add. Safe for concurrent lookups.
 */
final class ModuleFile {

    private static final int MAX_CACHED_ROWS = 1 << 16;

    private final List<ElfProgramHeader> programHeaders;
    private final Optional<FdeTable> ehFrame;
    private final Optional<FdeTable> debugFrame;
    private final SymbolTable symbols;
    private final boolean fullSymbols;
    private final DebugSource debugSource;
    private final Optional<String> problem;
    private final Map<Long, Optional<UnwindRow>> rows = new ConcurrentHashMap<>();
    private final LineSections lineSections;
    private volatile DebugFile debugFile;
    private volatile Optional<LineTable> lines;

    /** Finds and reads a module's separate debug file; called at most once per module. */
    interface DebugSource {
        DebugFile load();
    }

    private ModuleFile(List<ElfProgramHeader> programHeaders, Optional<FdeTable> ehFrame, Optional<FdeTable> debugFrame,
                       SymbolTable symbols, boolean fullSymbols, DebugSource debugSource, Optional<String> problem,
                       LineSections lineSections) {
        this.lineSections = lineSections;
        this.programHeaders = programHeaders;
        this.ehFrame = ehFrame;
        this.debugFrame = debugFrame;
        this.symbols = symbols;
        this.fullSymbols = fullSymbols;
        this.debugSource = debugSource;
        this.problem = problem;
    }

    /** A module whose file could not be read: no tables, and why. */
    static ModuleFile unreadable(String why) {
        return new ModuleFile(List.of(), Optional.empty(), Optional.empty(), SymbolTable.EMPTY, true,
                () -> DebugFile.NONE, Optional.of(why), LineSections.NONE);
    }

    /**
     * Reads the tables of the image at {@code path}; debug files are opened through {@code files}
     * when first needed; sections compressed with zstd are decompressed by {@code zstd}.
     */
    static ModuleFile read(ImageBytes bytes, String path, Function<String, Optional<FileBytes>> files, ZstdDecoder zstd) {
        ElfImage image;
        try {
            image = ElfImage.read(bytes, zstd);
        } catch (NativeDataException e) {
            return unreadable(path + ": " + e.getMessage());
        }
        Optional<FdeTable> eh = Optional.empty();
        String problem = null;
        Optional<ElfSectionHeader> ehSection = image.section(".eh_frame");
        if (ehSection.isPresent()) {
            try {
                CfiSection section = CfiSection.of(CfiSection.Kind.EH_FRAME, image.contents(ehSection.get()),
                        ehSection.get().address());
                eh = Optional.of(ehTable(image, section));
            } catch (NativeDataException e) {
                problem = ".eh_frame: " + e.getMessage();
            }
        }
        Optional<FdeTable> debug = debugFrame(image);
        Optional<ElfSectionHeader> symtab = image.sectionOfType(ElfImage.SHT_SYMTAB);
        SymbolTable symbols = SymbolTable.EMPTY;
        try {
            Optional<ElfSectionHeader> table = symtab.or(() -> image.sectionOfType(ElfSectionHeader.SHT_DYNSYM));
            if (table.isPresent()) {
                symbols = SymbolTable.read(image, table.get());
            }
        } catch (NativeDataException e) {
            problem = problem == null ? "symbols: " + e.getMessage() : problem;
        }
        Optional<String> buildId = image.section(".note.gnu.build-id").flatMap(s -> bytesOf(image, s))
                .flatMap(DebugFileNames::buildId);
        Optional<String> link = image.section(".gnu_debuglink").flatMap(s -> bytesOf(image, s))
                .flatMap(DebugFileNames::debugLink);
        DebugSource source = () -> DebugFiles.load(DebugFileNames.candidates(path, buildId, link), buildId, files, zstd);
        return new ModuleFile(image.programHeaders(), eh, debug, symbols, symtab.isPresent(), source,
                Optional.ofNullable(problem), LineSections.of(image));
    }

    /** The sorted FDE index of an image's {@code .eh_frame}: its header's table, else a scan. */
    private static FdeTable ehTable(ElfImage image, CfiSection section) throws NativeDataException {
        Optional<ElfSectionHeader> header = image.section(".eh_frame_hdr");
        if (header.isPresent()) {
            try {
                return EhFrameHeader.read(image.contents(header.get()), header.get().address(), section);
            } catch (NativeDataException unusable) {
                // The header is only an index: the section itself still lists every FDE.
            }
        }
        return FdeScan.scan(section);
    }

    /** The FDE index of an image's {@code .debug_frame}, when it has a readable one. */
    static Optional<FdeTable> debugFrame(ElfImage image) {
        Optional<ElfSectionHeader> header = image.section(".debug_frame");
        if (header.isEmpty()) {
            return Optional.empty();
        }
        try {
            CfiSection section = CfiSection.of(CfiSection.Kind.DEBUG_FRAME, image.contents(header.get()), 0);
            return Optional.of(FdeScan.scan(section));
        } catch (NativeDataException e) {
            return Optional.empty();
        }
    }

    private static Optional<byte[]> bytesOf(ElfImage image, ElfSectionHeader section) {
        try {
            return Optional.of(image.contents(section));
        } catch (NativeDataException e) {
            return Optional.empty();
        }
    }

    List<ElfProgramHeader> programHeaders() {
        return programHeaders;
    }

    /** Why the file, or part of it, could not be read. */
    Optional<String> problem() {
        return problem;
    }

    /** The unwind row in force at {@code pc} (link-time), from the first table with an FDE covering it. */
    Optional<UnwindRow> row(long pc) throws NativeDataException {
        Optional<UnwindRow> cached = rows.get(pc);
        if (cached != null) {
            return cached;
        }
        Optional<UnwindRow> row = computeRow(pc);
        if (rows.size() < MAX_CACHED_ROWS) {
            rows.put(pc, row);
        }
        return row;
    }

    private Optional<UnwindRow> computeRow(long pc) throws NativeDataException {
        Optional<UnwindRow> row = rowIn(ehFrame, pc);
        if (row.isEmpty()) {
            row = rowIn(debugFrame, pc);
        }
        if (row.isEmpty()) {
            row = rowIn(debugFile().debugFrame(), pc);
        }
        return row;
    }

    private static Optional<UnwindRow> rowIn(Optional<FdeTable> table, long pc) throws NativeDataException {
        if (table.isEmpty()) {
            return Optional.empty();
        }
        Optional<Fde> fde = table.get().find(pc);
        if (fde.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(CfaInterpreter.rowAt(table.get().section(), fde.get(), pc));
    }

    /** The function at {@code pc} (link-time), from the full symbol table when there is one anywhere. */
    Optional<Symbol> symbol(long pc) {
        if (!fullSymbols) {
            SymbolTable debugSymbols = debugFile().symbols();
            if (debugSymbols.size() > 0) {
                return debugSymbols.at(pc);
            }
        }
        return symbols.at(pc);
    }

    /** The source line of {@code pc} (link-time), where the image carries a line table. */
    Optional<SourceLine> line(long pc) {
        Optional<LineTable> table = lines;
        if (table == null) {
            synchronized (this) {
                table = lines;
                if (table == null) {
                    table = readLines();
                    lines = table;
                }
            }
        }
        return table.flatMap(t -> t.at(pc));
    }

    /** The image's own line table, else its separate debug file's (read only now: it may be large). */
    private Optional<LineTable> readLines() {
        return lineSections.present() ? lineSections.table() : debugFile().lines().read();
    }

    private DebugFile debugFile() {
        DebugFile d = debugFile;
        if (d == null) {
            synchronized (this) {
                d = debugFile;
                if (d == null) {
                    d = debugSource.load();
                    debugFile = d;
                }
            }
        }
        return d;
    }
}
