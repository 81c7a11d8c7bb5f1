package dev.remora.domain.nativestack;

import dev.remora.ports.elf.ElfSectionHeader;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Optional;

/**
 * The function symbols of one ELF symbol table ({@code .symtab} or {@code .dynsym}), sorted by
 * address for lookup. Where several symbols start at one address, the largest wins, then a global
 * name over a weak or local one, then the name with the fewest leading underscores (the public
 * {@code malloc} over its alias {@code __libc_malloc}). Names are decoded on first lookup.
 */
final class SymbolTable {

    static final SymbolTable EMPTY = new SymbolTable(new long[0], new long[0], new int[0], new byte[0]);

    private static final int ENTRY = 24;
    private static final int STT_NOTYPE = 0;
    private static final int STT_FUNC = 2;
    private static final int STT_GNU_IFUNC = 10;
    private static final int SHN_UNDEF = 0;
    private static final int SHN_LORESERVE = 0xff00;
    private static final int MAX_NAME = 4096;
    private static final int INDEX_BITS = 24;
    private static final int INDEX_MASK = (1 << INDEX_BITS) - 1;
    /** How many earlier symbols a lookup checks for one that encloses a nested one. */
    private static final int ENCLOSING_SEARCH = 8;

    private final long[] starts;
    private final long[] sizes;
    private final int[] nameOffsets;
    private final byte[] strings;
    private final String[] names;

    private SymbolTable(long[] starts, long[] sizes, int[] nameOffsets, byte[] strings) {
        this.starts = starts;
        this.sizes = sizes;
        this.nameOffsets = nameOffsets;
        this.strings = strings;
        this.names = new String[starts.length];
    }

    /** The function symbols of {@code table}, whose linked section holds their names. */
    static SymbolTable read(ElfImage image, ElfSectionHeader table) throws NativeDataException {
        ElfSectionHeader stringSection = image.section(table.link())
                .orElseThrow(() -> new NativeDataException("symbol table links to no string table"));
        return of(image.contents(table), image.contents(stringSection));
    }

    /** The function symbols of raw symbol entries, with names in {@code strings}. */
    static SymbolTable of(byte[] entries, byte[] strings) {
        int count = entries.length / ENTRY;
        long[] value = new long[count];
        long[] size = new long[count];
        int[] name = new int[count];
        int[] rank = new int[count];
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int at = i * ENTRY;
            long nameOffset = u32(entries, at);
            int info = entries[at + 4] & 0xff;
            int section = (entries[at + 6] & 0xff) | (entries[at + 7] & 0xff) << 8;
            long v = u64(entries, at + 8);
            long s = u64(entries, at + 16);
            int type = info & 0xf;
            boolean function = type == STT_FUNC || ((type == STT_NOTYPE || type == STT_GNU_IFUNC) && s != 0);
            if (!function || v == 0 || section == SHN_UNDEF || section >= SHN_LORESERVE
                    || nameOffset >= strings.length || s < 0) {
                continue;
            }
            int binding = info >> 4;
            value[kept] = v;
            size[kept] = s;
            name[kept] = (int) nameOffset;
            rank[kept] = (binding == 1 ? 0 : binding == 2 ? 1 : 2) << 8 | underscores(strings, (int) nameOffset);
            kept++;
        }
        int[] order = byAddress(value, kept);
        long[] starts = new long[kept];
        long[] sizes = new long[kept];
        int[] names = new int[kept];
        int n = 0;
        for (int k = 0; k < kept; ) {
            // One entry per address: the best of the run of symbols starting there.
            int best = order[k];
            int next = k + 1;
            while (next < kept && value[order[next]] == value[best]) {
                int other = order[next++];
                int bySize = Long.compareUnsigned(size[other], size[best]);
                if (bySize > 0 || (bySize == 0 && rank[other] < rank[best])) {
                    best = other;
                }
            }
            starts[n] = value[best];
            sizes[n] = size[best];
            names[n] = name[best];
            n++;
            k = next;
        }
        return new SymbolTable(Arrays.copyOf(starts, n), Arrays.copyOf(sizes, n), Arrays.copyOf(names, n), strings);
    }

    /** The indexes of the first {@code count} values, in ascending order of value. */
    private static int[] byAddress(long[] value, int count) {
        int[] order = new int[count];
        boolean packable = count <= INDEX_MASK;
        for (int i = 0; i < count && packable; i++) {
            packable = value[i] >= 0 && value[i] < 1L << (63 - INDEX_BITS);
        }
        if (packable) {
            // Sorting primitives: a large symbol table sorts in milliseconds, not tens of them.
            long[] keys = new long[count];
            for (int i = 0; i < count; i++) {
                keys[i] = value[i] << INDEX_BITS | i;
            }
            Arrays.sort(keys);
            for (int i = 0; i < count; i++) {
                order[i] = (int) (keys[i] & INDEX_MASK);
            }
            return order;
        }
        Integer[] boxed = new Integer[count];
        for (int i = 0; i < count; i++) {
            boxed[i] = i;
        }
        Arrays.sort(boxed, Comparator.comparingLong(i -> value[i]));
        for (int i = 0; i < count; i++) {
            order[i] = boxed[i];
        }
        return order;
    }

    int size() {
        return starts.length;
    }

    /** The symbol containing {@code address} (link-time), or the nearest below it when that one has no size. */
    Optional<Symbol> at(long address) {
        int i = Arrays.binarySearch(starts, address);
        if (i < 0) {
            i = -i - 2;
        }
        if (i < 0) {
            return Optional.empty();
        }
        if (sizes[i] == 0) {
            return Optional.of(symbol(i));
        }
        for (int j = i; j >= 0 && j > i - ENCLOSING_SEARCH; j--) {
            if (address - starts[j] < sizes[j] && address >= starts[j]) {
                return Optional.of(symbol(j));
            }
        }
        return Optional.empty();
    }

    private Symbol symbol(int i) {
        String name = names[i];
        if (name == null) {
            int start = nameOffsets[i];
            int end = start;
            // A symbol version ("clock_nanosleep@GLIBC_2.2.5") names the same function: gdb leaves it out.
            while (end < strings.length && strings[end] != 0 && strings[end] != '@' && end - start < MAX_NAME) {
                end++;
            }
            // C++ names as gdb shows them; C names stay as they are.
            name = CxxNames.demangle(new String(strings, start, end - start, StandardCharsets.UTF_8));
            names[i] = name;
        }
        return new Symbol(name, starts[i], sizes[i]);
    }

    private static int underscores(byte[] strings, int at) {
        int n = 0;
        while (at + n < strings.length && strings[at + n] == '_' && n < 255) {
            n++;
        }
        return n;
    }

    private static long u32(byte[] b, int at) {
        return (b[at] & 0xffL) | (b[at + 1] & 0xffL) << 8 | (b[at + 2] & 0xffL) << 16 | (b[at + 3] & 0xffL) << 24;
    }

    private static long u64(byte[] b, int at) {
        return u32(b, at) | u32(b, at + 4) << 32;
    }
}
