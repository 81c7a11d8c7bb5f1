package dev.remora.domain.discovery;

import dev.remora.domain.memory.Bytes;
import dev.remora.ports.FileBytes;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Finds a named section, or an exported symbol, in an ELF64 little-endian file, reading only the
 * headers and tables it needs. Every count and offset from the file is bounded before use.
 */
public final class ElfSections {

    /** Where a section sits, relative to the file's load base (first PT_LOAD, aligned down). */
    public record Section(long relativeAddress, long size) {}

    private static final int PT_LOAD = 1;
    private static final int SHT_DYNSYM = 11;
    private static final int SYMBOL_SIZE = 24;
    private static final int MAX_HEADERS = 1 << 16;
    private static final int MAX_SHSTRTAB = 1 << 20;
    private static final int MAX_SYMBOL_SECTION = 64 << 20;

    /** The file's load base and its section headers. */
    private record Headers(long loadBase, byte[] sections, int entrySize, int count, int namesIndex) {
        int at(int section) {
            return section * entrySize;
        }
    }

    private ElfSections() {}

    public static Optional<Section> find(FileBytes file, String name) throws IOException {
        Optional<Headers> parsed = headers(file);
        if (parsed.isEmpty()) {
            return Optional.empty();
        }
        Headers h = parsed.get();
        byte[] sections = h.sections();
        int strAt = h.at(h.namesIndex());
        long strSize = Bytes.getLong(sections, strAt + 0x20);
        if (strSize <= 0 || strSize > MAX_SHSTRTAB) {
            return Optional.empty();
        }
        byte[] names = readExactly(file, Bytes.getLong(sections, strAt + 0x18), (int) strSize);
        if (names == null) {
            return Optional.empty();
        }
        byte[] wanted = name.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < h.count(); i++) {
            int at = h.at(i);
            if (nameEquals(names, Bytes.getInt(sections, at), wanted)) {
                long addr = Bytes.getLong(sections, at + 0x10);
                long size = Bytes.getLong(sections, at + 0x20);
                return Optional.of(new Section(addr - h.loadBase(), size));
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
        for (int i = 0; i < h.count(); i++) {
            int at = h.at(i);
            int link = Bytes.getInt(h.sections(), at + 0x28);
            if (Bytes.getInt(h.sections(), at + 4) != SHT_DYNSYM || link <= 0 || link >= h.count()) {
                continue;
            }
            byte[] symbols = readSection(file, h.sections(), at);
            byte[] names = readSection(file, h.sections(), h.at(link));
            if (symbols == null || names == null) {
                return Optional.empty();
            }
            for (int sym = 0; sym + SYMBOL_SIZE <= symbols.length; sym += SYMBOL_SIZE) {
                long value = Bytes.getLong(symbols, sym + 8);
                if (value != 0 && nameEquals(names, Bytes.getInt(symbols, sym), wanted)) {
                    return Optional.of(value - h.loadBase());
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Headers> headers(FileBytes file) throws IOException {
        byte[] eh = readExactly(file, 0, 64);
        if (eh == null || eh[0] != 0x7f || eh[1] != 'E' || eh[2] != 'L' || eh[3] != 'F' || eh[4] != 2 || eh[5] != 1) {
            return Optional.empty();
        }
        long phoff = Bytes.getLong(eh, 0x20);
        long shoff = Bytes.getLong(eh, 0x28);
        int phentsize = Bytes.getUnsignedShort(eh, 0x36);
        int phnum = Bytes.getUnsignedShort(eh, 0x38);
        int shentsize = Bytes.getUnsignedShort(eh, 0x3A);
        int shnum = Bytes.getUnsignedShort(eh, 0x3C);
        int shstrndx = Bytes.getUnsignedShort(eh, 0x3E);
        if (phentsize < 56 || phentsize > 256 || shentsize < 64 || shentsize > 256 || shnum == 0 || shstrndx >= shnum
                || phnum > MAX_HEADERS) {
            return Optional.empty();
        }
        Optional<Long> loadBase = loadBase(file, phoff, phentsize, phnum);
        byte[] sections = readExactly(file, shoff, shnum * shentsize);
        if (loadBase.isEmpty() || sections == null) {
            return Optional.empty();
        }
        return Optional.of(new Headers(loadBase.get(), sections, shentsize, shnum, shstrndx));
    }

    /** A section's bytes, bounded; null when out of bounds. */
    private static byte[] readSection(FileBytes file, byte[] sections, int at) throws IOException {
        long offset = Bytes.getLong(sections, at + 0x18);
        long size = Bytes.getLong(sections, at + 0x20);
        return size <= 0 || size > MAX_SYMBOL_SECTION ? null : readExactly(file, offset, (int) size);
    }

    private static Optional<Long> loadBase(FileBytes file, long phoff, int phentsize, int phnum) throws IOException {
        byte[] headers = readExactly(file, phoff, phentsize * phnum);
        if (headers == null) {
            return Optional.empty();
        }
        for (int i = 0; i < phnum; i++) {
            int at = i * phentsize;
            if (Bytes.getInt(headers, at) == PT_LOAD) {
                long vaddr = Bytes.getLong(headers, at + 0x10);
                long align = Bytes.getLong(headers, at + 0x30);
                return Optional.of(align > 0 ? vaddr - Long.remainderUnsigned(vaddr, align) : vaddr);
            }
        }
        return Optional.empty();
    }

    private static boolean nameEquals(byte[] names, int offset, byte[] wanted) {
        if (offset < 0 || offset + wanted.length >= names.length) {
            return false;
        }
        for (int i = 0; i < wanted.length; i++) {
            if (names[offset + i] != wanted[i]) {
                return false;
            }
        }
        return names[offset + wanted.length] == 0;
    }

    /** The bytes, or null when the file is shorter than the range. */
    private static byte[] readExactly(FileBytes file, long position, int length) throws IOException {
        if (position < 0 || length < 0 || position + length > file.size()) {
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
