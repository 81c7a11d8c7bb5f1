package dev.remora.domain.nativestack;

import dev.remora.ports.FileBytes;
import dev.remora.ports.elf.ElfSectionHeader;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/** Opens the first usable separate debug file among the candidates and reads what it adds. */
final class DebugFiles {

    private DebugFiles() {}

    /**
     * The first candidate that opens as ELF with a {@code .symtab} or {@code .debug_frame} and, when
     * both it and the module name a build id, the same one (a stale debug file would name other code).
     */
    static DebugFile load(List<String> candidates, Optional<String> buildId, Function<String, Optional<FileBytes>> files) {
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
                Optional<DebugFile> read = read(new FileImage(file), buildId);
                if (read.isPresent()) {
                    return read.get();
                }
            } catch (RuntimeException e) {
                // A file that breaks its reader is no debug file for this module; try the next.
            }
        }
        return DebugFile.NONE;
    }

    private static Optional<DebugFile> read(ImageBytes bytes, Optional<String> buildId) {
        try {
            ElfImage image = ElfImage.read(bytes);
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
            if (symbols.size() == 0 && frames.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new DebugFile(symbols, frames));
        } catch (NativeDataException e) {
            return Optional.empty();
        }
    }
}
