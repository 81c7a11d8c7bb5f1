package dev.remora.domain.discovery;

import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.ports.FileBytes;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Finds where an ELF section of any name is loaded in a target: the section's address relative to
 * its file's load base, placed at every load of each mapped file whose base name passes a filter,
 * the way {@link RuntimeLocator} places {@code .PyRuntime}. Deleted files are skipped: without a
 * cookie to scan for, their sections cannot be found from memory alone.
 */
public final class MappedSections {

    /** One load of a section: its address in the target and the file it comes from. */
    public record MappedSection(String file, long address, long size) {}

    private final ProcessImage image;

    public MappedSections(ProcessImage image) {
        this.image = image;
    }

    /** Every load of section {@code name} (with its leading dot) in the matching files, in mapping order. */
    public List<MappedSection> find(String name, Predicate<String> baseName) throws InspectionException {
        List<MemoryMapping> mappings;
        try {
            mappings = image.mappings();
        } catch (ProcessImageException e) {
            throw Failures.from(e);
        }
        List<MappedSection> found = new ArrayList<>();
        for (String path : files(mappings, baseName)) {
            List<MemoryMapping> ofFile = mappings.stream().filter(m -> m.path().filter(path::equals).isPresent()).toList();
            if (ofFile.stream().anyMatch(MemoryMapping::deleted)) {
                continue;
            }
            Optional<ElfSections.Section> section = sectionOf(path, name);
            if (section.isEmpty()) {
                continue;
            }
            for (MemoryMapping m : ofFile) {
                if (m.fileOffset() == 0) {
                    found.add(new MappedSection(path, m.start() + section.get().relativeAddress(), section.get().size()));
                }
            }
        }
        return found;
    }

    /** The mapped files (not the kernel's [heap] and the like) whose base name passes, in mapping order. */
    static Set<String> files(List<MemoryMapping> mappings, Predicate<String> baseName) {
        Set<String> files = new LinkedHashSet<>();
        for (MemoryMapping m : mappings) {
            m.path().filter(p -> !p.startsWith("[")).filter(p -> baseName.test(basename(p))).ifPresent(files::add);
        }
        return files;
    }

    /** Where section {@code name} lies in the file, empty when the file cannot be opened or has none. */
    Optional<ElfSections.Section> sectionOf(String path, String name) {
        return inFile(path, f -> ElfSections.find(f, name));
    }

    /** Where exported symbol {@code name} lies relative to the file's load base, empty when not found. */
    Optional<Long> symbolOf(String path, String name) {
        return inFile(path, f -> ElfSections.dynamicSymbol(f, name));
    }

    private interface FileQuery<T> {
        Optional<T> ask(FileBytes file) throws IOException;
    }

    private <T> Optional<T> inFile(String path, FileQuery<T> query) {
        Optional<FileBytes> file = image.openFile(path);
        if (file.isEmpty()) {
            return Optional.empty();
        }
        try (FileBytes f = file.get()) {
            return query.ask(f);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    public static String basename(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
