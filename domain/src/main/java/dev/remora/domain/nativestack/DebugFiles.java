package dev.remora.domain.nativestack;

import dev.remora.ports.FileBytes;
import dev.remora.ports.ZstdDecoder;
import dev.remora.ports.elf.ElfSectionHeader;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Opens the first usable separate debug file among the candidates and reads what it adds. */
final class DebugFiles {

    private DebugFiles() {}

    /**
     * The first candidate that opens as ELF with a {@code .symtab}, {@code .debug_frame} or
     * {@code .debug_line} and, when both it and the module name a build id, the same one (a stale
     * debug file would name other code).
     */
    static DebugFile load(List<String> candidates, Optional<String> buildId, Function<String, Optional<FileBytes>> files,
                          ZstdDecoder zstd) {
        for (String candidate : candidates) {
            Optional<FileBytes> opened;
            try {
                opened = files.apply(candidate);
            } catch (RuntimeException e) {
                continue;
            }
            if (opened.isEmpty()) {
                continue;
            }
            try (FileBytes file = opened.get()) {
                Optional<DebugFile> read = read(new FileImage(file), buildId, () -> linesOf(candidate, files, zstd), zstd);
                if (read.isPresent()) {
                    return read.get();
                }
            } catch (RuntimeException e) {
                // A file that breaks its reader is no debug file for this module; try the next.
            }
        }
        return DebugFile.NONE;
    }

    /** The line table of the debug file at {@code path}, opened again: it was closed once its symbols were read. */
    private static Optional<LineTable> linesOf(String path, Function<String, Optional<FileBytes>> files, ZstdDecoder zstd) {
        try {
            Optional<FileBytes> opened = files.apply(path);
            if (opened.isEmpty()) {
                return Optional.empty();
            }
            try (FileBytes file = opened.get()) {
                return LineSections.of(ElfImage.read(new FileImage(file), zstd)).table();
            }
        } catch (NativeDataException | RuntimeException e) {
            return Optional.empty(); // frames just go without lines
        }
    }

    private static Optional<DebugFile> read(ImageBytes bytes, Optional<String> buildId, DebugFile.LineSource lines,
                                            ZstdDecoder zstd) {
        try {
            ElfImage image = ElfImage.read(bytes, zstd);
            if (buildId.isPresent()) {
                Optional<ElfSectionHeader> note = image.section(".note.gnu.build-id");
                Optional<String> own = note.isPresent() ? DebugFileNames.buildId(image.contents(note.get())) : Optional.empty();
                if (own.isPresent() && !own.equals(buildId)) {
                    return Optional.empty();
                }
            }
            Optional<ElfSectionHeader> symtab = image.sectionOfType(ElfImage.SHT_SYMTAB);
            SymbolTable symbols = symtab.isPresent() ? SymbolTable.read(image, symtab.get()) : SymbolTable.EMPTY;
            Optional<FdeTable> frames = ModuleFile.debugFrame(image);
            boolean hasLines = image.section(".debug_line").isPresent();
            if (symbols.size() == 0 && frames.isEmpty() && !hasLines) {
                return Optional.empty();
            }
            return Optional.of(new DebugFile(symbols, frames, hasLines ? lines : DebugFile.LineSource.NONE));
        } catch (NativeDataException e) {
            return Optional.empty();
        }
    }
}
