package dev.remora.domain.nativestack;

import dev.remora.ports.ZstdDecoder;
import dev.remora.ports.elf.ElfFileHeader;
import dev.remora.ports.elf.ElfProgramHeader;
import dev.remora.ports.elf.ElfSectionHeader;
import dev.remora.ports.elf.ElfStrings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The program and section headers of an x86-64 ELF image, and bounded reads of its sections. Every
 * count, size and offset taken from the image is checked against the image before use.
 */
final class ElfImage {

    /** The largest table (unwind section, symbol table) read from one image. */
    static final int MAX_SECTION = 256 << 20;
    static final long SHT_SYMTAB = 2;
    static final long SHT_NOBITS = 8;

    private static final int MAX_HEADERS = 1 << 16;
    private static final int MAX_HEADER_SIZE = 256;
    private static final int MAX_NAMES = 1 << 20;

    private final ImageBytes bytes;
    private final List<ElfProgramHeader> programHeaders;
    private final List<ElfSectionHeader> sections;
    private final byte[] names;
    private final ZstdDecoder zstd;

    private ElfImage(ImageBytes bytes, List<ElfProgramHeader> programHeaders, List<ElfSectionHeader> sections,
                     byte[] names, ZstdDecoder zstd) {
        this.bytes = bytes;
        this.zstd = zstd;
        this.programHeaders = programHeaders;
        this.sections = sections;
        this.names = names;
    }

    /** @param zstd decompresses the sections stored compressed with zstd */
    static ElfImage read(ImageBytes bytes, ZstdDecoder zstd) throws NativeDataException {
        byte[] head = range(bytes, 0, ElfFileHeader.SIZE);
        if (!ElfFileHeader.hasMagic(head)) {
            throw new NativeDataException("not an ELF file");
        }
        ElfFileHeader eh = ElfFileHeader.decode(head);
        if (!eh.is64BitLittleEndian() || eh.machine() != ElfFileHeader.EM_X86_64) {
            throw new NativeDataException("not an x86-64 ELF file");
        }
        List<ElfProgramHeader> programs = new ArrayList<>();
        int phsize = eh.programHeaderSize();
        int phnum = eh.programHeaderCount();
        if (phnum > 0 && phnum != ElfFileHeader.PN_XNUM) {
            if (phsize < ElfProgramHeader.SIZE || phsize > MAX_HEADER_SIZE) {
                throw new NativeDataException("program headers of %d bytes".formatted(phsize));
            }
            byte[] table = range(bytes, eh.programHeaderOffset(), (long) phsize * phnum);
            for (int i = 0; i < phnum; i++) {
                programs.add(ElfProgramHeader.decode(table, i * phsize));
            }
        }
        List<ElfSectionHeader> sections = new ArrayList<>();
        byte[] names = new byte[0];
        int shsize = eh.sectionHeaderSize();
        int shnum = eh.sectionHeaderCount();
        // A stripped image may keep no section headers at all; its program headers still place it.
        if (shnum > 0 && eh.sectionHeaderOffset() != 0 && shsize >= ElfSectionHeader.SIZE && shsize <= MAX_HEADER_SIZE
                && shnum <= MAX_HEADERS) {
            byte[] table = range(bytes, eh.sectionHeaderOffset(), (long) shsize * shnum);
            for (int i = 0; i < shnum; i++) {
                sections.add(ElfSectionHeader.decode(table, i * shsize));
            }
            if (eh.sectionNamesIndex() < shnum) {
                ElfSectionHeader strings = sections.get(eh.sectionNamesIndex());
                if (strings.type() != SHT_NOBITS && strings.size() <= MAX_NAMES) {
                    names = range(bytes, strings.offset(), strings.size());
                }
            }
        }
        return new ElfImage(bytes, List.copyOf(programs), List.copyOf(sections), names, zstd);
    }

    List<ElfProgramHeader> programHeaders() {
        return programHeaders;
    }

    /** The section named {@code name} that has bytes in this image (debug files keep empty NOBITS copies). */
    Optional<ElfSectionHeader> section(String name) {
        byte[] wanted = name.getBytes(StandardCharsets.US_ASCII);
        for (ElfSectionHeader s : sections) {
            if (s.type() != SHT_NOBITS && s.size() > 0 && ElfStrings.nameIs(names, s.nameOffset(), wanted)) {
                return Optional.of(s);
            }
        }
        return Optional.empty();
    }

    /** The first section of {@code type} with bytes in this image. */
    Optional<ElfSectionHeader> sectionOfType(long type) {
        return sections.stream().filter(s -> s.type() == type && s.size() > 0).findFirst();
    }

    /** Section number {@code index}, when there is one. */
    Optional<ElfSectionHeader> section(long index) {
        return index > 0 && index < sections.size() ? Optional.of(sections.get((int) index)) : Optional.empty();
    }

    /** A section's bytes (decompressed where the section is), refused above {@link #MAX_SECTION}. */
    byte[] contents(ElfSectionHeader section) throws NativeDataException {
        if (section.type() == SHT_NOBITS) {
            throw new NativeDataException("section has no bytes in the file");
        }
        byte[] stored = range(bytes, section.offset(), section.size());
        return section.compressed() ? CompressedSection.inflate(stored, MAX_SECTION, zstd) : stored;
    }

    private static byte[] range(ImageBytes bytes, long position, long length) throws NativeDataException {
        if (position < 0 || length < 0 || length > MAX_SECTION || position > bytes.size() - length) {
            throw new NativeDataException("0x%x bytes at 0x%x lie outside the image or exceed the size cap"
                    .formatted(length, position));
        }
        byte[] out = new byte[(int) length];
        bytes.read(position, out, 0, out.length);
        return out;
    }
}
