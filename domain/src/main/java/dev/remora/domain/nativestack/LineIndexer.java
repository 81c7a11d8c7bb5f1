package dev.remora.domain.nativestack;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Collects, from every unit's line program, the points a lookup may resume from (see
 * {@link LineIndex}) and the files the programs define. Rows are not kept: a lookup runs part of one
 * sequence again. Sequences starting at address 0 are code the linker discarded, and a sequence the
 * unit does not end is dropped.
 */
final class LineIndexer implements LineRows {

    /** The most points kept by default (160 MB): far above a real table, whose sequences take tens of bytes each. */
    static final int MAX_POINTS = 1 << 22;

    private final int maxPoints;

    private long[] addresses = new long[256];
    private long[] ends = new long[256];
    private int[] units = new int[256];
    private int[] offsets = new int[256];
    private long[] files = new long[256];
    private long[] lines = new long[256];
    private int count;
    private int sequences;
    private boolean full;

    private LineProgramHeader header;
    private int unit;
    private boolean inSequence;
    private int sequenceFirst;
    private int lastResume;
    private final List<String> defined = new ArrayList<>();
    /** One copy of each path: every unit names the same headers, and paths are most of a table's memory. */
    private final Map<String, String> paths = new HashMap<>();

    LineIndexer(int maxPoints) {
        this.maxPoints = maxPoints;
    }

    /** Starts collecting unit number {@code index}, whose header is {@code header}. */
    void startUnit(int index, LineProgramHeader header) {
        this.header = header;
        this.unit = index;
        this.inSequence = false;
        defined.clear();
    }

    /** The current unit's header with the files its program defined; drops a sequence left open. */
    LineProgramHeader finishUnit() {
        if (inSequence) {
            count = sequenceFirst;
            inSequence = false;
        }
        List<String> all = new ArrayList<>(header.files().size() + defined.size());
        for (String file : header.files()) {
            all.add(paths.computeIfAbsent(file, Function.identity()));
        }
        for (String file : defined) {
            all.add(paths.computeIfAbsent(file, Function.identity()));
        }
        return header.withFiles(all);
    }

    /** Whether the index reached its most points; the run that reached it was stopped. */
    boolean full() {
        return full;
    }

    @Override
    public boolean row(long address, long file, long line, int next) {
        if (count >= maxPoints) {
            full = true;
            return false;
        }
        if (!inSequence) {
            inSequence = true;
            sequenceFirst = count;
            add(address, file, line, next);
        } else if (next - lastResume >= LineIndex.RESUME_BYTES) {
            add(address, file, line, next);
        }
        return true;
    }

    @Override
    public boolean endSequence(long address, int next) {
        if (!inSequence) {
            return true;
        }
        inSequence = false;
        long low = addresses[sequenceFirst];
        if (low == 0) {
            count = sequenceFirst;
            return true;
        }
        int kept = sequenceFirst;
        for (int i = sequenceFirst; i < count; i++) {
            // A point at or past the end covers nothing (rows that fall back are damage).
            if (Long.compareUnsigned(addresses[i], address) < 0) {
                move(i, kept);
                ends[kept] = address;
                kept++;
            }
        }
        count = kept;
        sequences += kept > sequenceFirst ? 1 : 0;
        return true;
    }

    @Override
    public void defineFile(String name, long directory) {
        defined.add(SourcePaths.file(header.directories(), directory, name));
    }

    /** The table over {@code section}, with each resume point's unit in {@code headers}. */
    LineTable table(byte[] section, List<LineProgramHeader> headers) {
        int[] order = byAddress(addresses, count);
        long[] a = new long[count];
        long[] e = new long[count];
        int[] u = new int[count];
        int[] o = new int[count];
        long[] f = new long[count];
        long[] l = new long[count];
        for (int i = 0; i < count; i++) {
            int k = order[i];
            a[i] = addresses[k];
            e[i] = ends[k];
            u[i] = units[k];
            o[i] = offsets[k];
            f[i] = files[k];
            l[i] = lines[k];
        }
        return new LineTable(section, List.copyOf(headers), new LineIndex(a, e, u, o, f, l), sequences);
    }

    private void add(long address, long file, long line, int next) {
        if (count == addresses.length) {
            int grown = count * 2;
            addresses = Arrays.copyOf(addresses, grown);
            ends = Arrays.copyOf(ends, grown);
            units = Arrays.copyOf(units, grown);
            offsets = Arrays.copyOf(offsets, grown);
            files = Arrays.copyOf(files, grown);
            lines = Arrays.copyOf(lines, grown);
        }
        addresses[count] = address;
        ends[count] = 0; // covers nothing until its sequence ends
        units[count] = unit;
        offsets[count] = next;
        files[count] = file;
        lines[count] = line;
        count++;
        lastResume = next;
    }

    private void move(int from, int to) {
        addresses[to] = addresses[from];
        units[to] = units[from];
        offsets[to] = offsets[from];
        files[to] = files[from];
        lines[to] = lines[from];
    }

    /** Indexes of the first {@code n} keys in ascending unsigned order, equal keys in program order. */
    private static int[] byAddress(long[] keys, int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i;
        }
        int[] b = new int[n];
        // Bottom-up merge sort: stable, no boxing, n log n on any input.
        for (int width = 1; width < n; width *= 2) {
            for (int lo = 0; lo < n; lo += 2 * width) {
                int mid = Math.min(lo + width, n);
                int hi = Math.min(lo + 2 * width, n);
                int i = lo;
                int j = mid;
                for (int k = lo; k < hi; k++) {
                    b[k] = i < mid && (j >= hi || Long.compareUnsigned(keys[a[i]], keys[a[j]]) <= 0) ? a[i++] : a[j++];
                }
            }
            int[] t = a;
            a = b;
            b = t;
        }
        return a;
    }
}
