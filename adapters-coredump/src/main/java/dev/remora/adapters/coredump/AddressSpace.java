package dev.remora.adapters.coredump;

import dev.remora.ports.elf.ElfProgramHeader;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The target's address space as the core records it: the PT_LOAD segments laid over the NT_FILE
 * mappings, cut into {@link Region}s at every boundary of either, sorted for binary search.
 * Addresses are unsigned (the vsyscall page sits at 0xffffffffff600000).
 */
final class AddressSpace {

    private static final Comparator<Long> UNSIGNED = Long::compareUnsigned;

    private final Region[] regions;
    private final long[] starts;

    private AddressSpace(List<Region> regions) {
        this.regions = regions.toArray(Region[]::new);
        this.starts = regions.stream().mapToLong(Region::start).toArray();
    }

    static AddressSpace build(CoreBytes core, List<ElfProgramHeader> headers, List<FileMapping> files) throws CoreFileException {
        List<ElfProgramHeader> loads = loads(core, headers);
        List<FileMapping> mapped = files.stream().sorted(Comparator.comparing(FileMapping::start, UNSIGNED)).toList();
        for (int i = 1; i < mapped.size(); i++) {
            if (Long.compareUnsigned(mapped.get(i - 1).end(), mapped.get(i).start()) > 0) {
                throw new CoreFileException.Corrupt("%s is corrupt: NT_FILE mappings overlap at 0x%x"
                        .formatted(core.name(), mapped.get(i).start()));
            }
        }
        return new AddressSpace(cut(loads, mapped));
    }

    /** The region holding {@code address}, or null when the core records nothing there. */
    Region find(long address) {
        int lo = 0;
        int hi = starts.length - 1;
        int found = -1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (Long.compareUnsigned(starts[mid], address) <= 0) {
                found = mid;
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return found >= 0 && regions[found].contains(address) ? regions[found] : null;
    }

    List<Region> regions() {
        return List.of(regions);
    }

    /**
     * Up to {@code max} bytes at {@code address} that the core itself holds, stopping at the first it
     * does not; never consults mapped files.
     */
    byte[] heldInCore(CoreBytes core, long address, int max) {
        Region r = find(address);
        if (r == null || r.load() == null) {
            return new byte[0];
        }
        long inSegment = address - r.load().address();
        if (Long.compareUnsigned(inSegment, r.load().fileSize()) >= 0) {
            return new byte[0];
        }
        long held = r.load().fileSize() - inSegment; // positive: fileSize is below the core's size
        long toRegionEnd = r.end() - address; // unsigned: a region may span more than 2^63 bytes
        if (Long.compareUnsigned(toRegionEnd, held) < 0) {
            held = toRegionEnd;
        }
        byte[] copy = new byte[(int) Math.min(held, max)];
        core.copy(r.load().offset() + inSegment, copy, 0, copy.length);
        return copy;
    }

    /** The PT_LOAD segments that occupy memory, checked and sorted; they may not overlap. */
    private static List<ElfProgramHeader> loads(CoreBytes core, List<ElfProgramHeader> headers) throws CoreFileException {
        List<ElfProgramHeader> loads = new ArrayList<>();
        for (ElfProgramHeader h : headers) {
            if (h.type() != ElfProgramHeader.PT_LOAD || h.memorySize() == 0) {
                continue;
            }
            if (Long.compareUnsigned(h.fileSize(), h.memorySize()) > 0) {
                throw new CoreFileException.Corrupt("%s is corrupt: the segment at 0x%x holds more bytes in the file than in memory"
                        .formatted(core.name(), h.address()));
            }
            if (!h.fitsAddressSpace()) {
                throw new CoreFileException.Corrupt("%s is corrupt: the segment at 0x%x runs past the end of the address space"
                        .formatted(core.name(), h.address()));
            }
            core.require(h.offset(), h.fileSize(), "the segment at 0x%x".formatted(h.address()));
            loads.add(h);
        }
        loads.sort(Comparator.comparing(ElfProgramHeader::address, UNSIGNED));
        for (int i = 1; i < loads.size(); i++) {
            if (Long.compareUnsigned(loads.get(i - 1).end(), loads.get(i).address()) > 0) {
                throw new CoreFileException.Corrupt("%s is corrupt: segments overlap at 0x%x"
                        .formatted(core.name(), loads.get(i).address()));
            }
        }
        return loads;
    }

    /** Splits at every start and end of a segment or mapping; joins neighbours that have the same pair. */
    private static List<Region> cut(List<ElfProgramHeader> loads, List<FileMapping> files) {
        long[] bounds = new long[2 * (loads.size() + files.size())];
        int n = 0;
        for (ElfProgramHeader l : loads) {
            bounds[n++] = l.address() ^ Long.MIN_VALUE;
            bounds[n++] = l.end() ^ Long.MIN_VALUE;
        }
        for (FileMapping f : files) {
            bounds[n++] = f.start() ^ Long.MIN_VALUE;
            bounds[n++] = f.end() ^ Long.MIN_VALUE;
        }
        // Flipping the sign bit makes signed order the unsigned order of addresses.
        Arrays.sort(bounds);
        List<Region> regions = new ArrayList<>();
        int li = 0;
        int fi = 0;
        for (int i = 0; i + 1 < bounds.length; i++) {
            long from = bounds[i] ^ Long.MIN_VALUE;
            long to = bounds[i + 1] ^ Long.MIN_VALUE;
            if (from == to) {
                continue;
            }
            while (li < loads.size() && Long.compareUnsigned(loads.get(li).end(), from) <= 0) {
                li++;
            }
            while (fi < files.size() && Long.compareUnsigned(files.get(fi).end(), from) <= 0) {
                fi++;
            }
            ElfProgramHeader load = li < loads.size() && Long.compareUnsigned(loads.get(li).address(), from) <= 0 ? loads.get(li) : null;
            FileMapping file = fi < files.size() && Long.compareUnsigned(files.get(fi).start(), from) <= 0 ? files.get(fi) : null;
            if (load == null && file == null) {
                continue;
            }
            Region last = regions.isEmpty() ? null : regions.getLast();
            if (last != null && last.end() == from && last.load() == load && last.file() == file) {
                regions.set(regions.size() - 1, new Region(last.start(), to, load, file));
            } else {
                regions.add(new Region(from, to, load, file));
            }
        }
        return regions;
    }
}
