package dev.remora.domain.discovery;

import dev.remora.domain.memory.Bytes;
import dev.remora.ports.FileBytes;
import dev.remora.ports.elf.ElfFileHeader;
import dev.remora.ports.elf.ElfProgramHeader;
import dev.remora.ports.elf.ElfSectionHeader;
import dev.remora.ports.elf.ElfStrings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Finds a named section, or an exported symbol, in an ELF64 little-endian file, reading only the
 * headers and tables it needs. Every count and offset from the file is bounded before use.
 */
public final class ElfSections {

    /** Where a section sits, relative to the file's load base (first PT_LOAD, aligned down). */
    public record Section(long relativeAddress, long size) {}

    private static final int SYMBOL_SIZE = 24;
    private static final int MAX_HEADERS = 1 << 16;
    private static final int MAX_HEADER_SIZE = 256;
    private static final int MAX_SHSTRTAB = 1 << 20;
    private static final int MAX_SYMBOL_SECTION = 64 << 20;

    /** The file's load base and its section headers. */
    private record Headers(long loadBase, List<ElfSectionHeader> sections, int namesIndex) {}

    private ElfSections() {}

    public static Optional<Section> find(FileBytes file, String name) throws IOException {
        Optional<Headers> parsed = headers(file);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        Headers h = parsed.get();
        byte[] names = readSection(file, h.sections().get(h.namesIndex()), MAX_SHSTRTAB);
        if (names == null) {
            return Optional.empty();
        }
        byte[] wanted = name.getBytes(StandardCharsets.US_ASCII);
        for (ElfSectionHeader section : h.sections()) {
            if (ElfStrings.nameIs(names, section.nameOffset(), wanted)) {
                return Optional.of(new Section(section.address() - h.loadBase(), section.size()));
            }
        }
        return Optional.empty();
    }

    /**
     * Where an exported symbol ({@code .dynsym}) lies, relative to the file's load base: how a version
     * that exports no debug offsets names itself ({@code Py_Version}).
     */
    public static Optional<Long> dynamicSymbol(FileBytes file, String name) throws IOException {
        Optional<Headers> parsed = headers(file);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        Headers h = parsed.get();
        byte[] wanted = name.getBytes(StandardCharsets.US_ASCII);
        for (ElfSectionHeader section : h.sections()) {
            long link = section.link();
            if (section.type() != ElfSectionHeader.SHT_DYNSYM || link <= 0 || link >= h.sections().size()) {
                continue;
            }
            byte[] symbols = readSection(file, section, MAX_SYMBOL_SECTION);
            byte[] names = readSection(file, h.sections().get((int) link), MAX_SYMBOL_SECTION);
            if (symbols == null || names == null) {
                return Optional.empty();
            }
            for (int sym = 0; sym + SYMBOL_SIZE <= symbols.length; sym += SYMBOL_SIZE) {
                long value = Bytes.getLong(symbols, sym + 8);
                if (value != 0 && ElfStrings.nameIs(names, Integer.toUnsignedLong(Bytes.getInt(symbols, sym)), wanted)) {
                    return Optional.of(value - h.loadBase());
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Headers> headers(FileBytes file) throws IOException {
        byte[] bytes = readExactly(file, 0, ElfFileHeader.SIZE);
        if (bytes == null || !ElfFileHeader.hasMagic(bytes)) {
            return Optional.empty();
        }
        ElfFileHeader eh = ElfFileHeader.decode(bytes);
        int shentsize = eh.sectionHeaderSize();
        int phentsize = eh.programHeaderSize();
        int shnum = eh.sectionHeaderCount();
        if (!eh.is64BitLittleEndian() || phentsize < ElfProgramHeader.SIZE || phentsize > MAX_HEADER_SIZE
                || shentsize < ElfSectionHeader.SIZE || shentsize > MAX_HEADER_SIZE || shnum == 0
                || eh.sectionNamesIndex() >= shnum || eh.programHeaderCount() > MAX_HEADERS) {
            return Optional.empty();
        }
        Optional<Long> loadBase = loadBase(file, eh);
        byte[] table = readExactly(file, eh.sectionHeaderOffset(), shnum * shentsize);
        if (loadBase.isEmpty() || table == null) {
            return Optional.empty();
        }
        List<ElfSectionHeader> sections = new ArrayList<>(shnum);
        for (int i = 0; i < shnum; i++) {
            sections.add(ElfSectionHeader.decode(table, i * shentsize));
        }
        return Optional.of(new Headers(loadBase.get(), sections, eh.sectionNamesIndex()));
    }

    /** A section's bytes, at most {@code max}; null when out of bounds. */
    private static byte[] readSection(FileBytes file, ElfSectionHeader section, int max) throws IOException {
        long size = section.size();
        return size <= 0 || size > max ? null : readExactly(file, section.offset(), (int) size);
    }

    private static Optional<Long> loadBase(FileBytes file, ElfFileHeader eh) throws IOException {
        int size = eh.programHeaderSize();
        byte[] table = readExactly(file, eh.programHeaderOffset(), size * eh.programHeaderCount());
        if (table == null) {
            return Optional.empty();
        }
        for (int i = 0; i < eh.programHeaderCount(); i++) {
            ElfProgramHeader header = ElfProgramHeader.decode(table, i * size);
            if (header.type() == ElfProgramHeader.PT_LOAD) {
                return Optional.of(header.alignedAddress());
            }
        }
        return Optional.empty();
    }

    /** The bytes, or null when the file is shorter than the range. */
    private static byte[] readExactly(FileBytes file, long position, int length) throws IOException {
        if (position < 0 || length < 0 || position > file.size() - length) {
            return null;
        }
        byte[] out = new byte[length];
        int done = 0;
        while (done < length) {
            int n = file.read(position + done, out, done, length - done);
            if (n <= 0) {
                return null;
            }
            done += n;
        }
        return out;
    }
}
