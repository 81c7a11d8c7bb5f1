package dev.remora.domain.nativestack;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The file and line of code addresses, from a module's DWARF {@code .debug_line}. Building the table
 * runs every unit's program once and keeps only where each sequence starts and a resume point every
 * {@link LineIndex#RESUME_BYTES} of opcodes; a lookup finds the nearest point below the address by
 * binary search and runs the program from there, and recent answers are kept.
 */
final class LineTable {

    /** How many answers are kept; a profile revisits the same few thousand return addresses. */
    private static final int RECENT = 4096;
    /** How many earlier sequences a lookup tries when sequences overlap. */
    private static final int OVERLAP_SEARCH = 8;

    private final byte[] section;
    private final List<LineProgramHeader> units;
    private final LineIndex index;
    private final int sequences;
    private final Map<Long, Optional<SourceLine>> recent = new LinkedHashMap<>(RECENT * 2, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Long, Optional<SourceLine>> eldest) {
            return size() > RECENT;
        }
    };

    LineTable(byte[] section, List<LineProgramHeader> units, LineIndex index, int sequences) {
        this.section = section;
        this.units = units;
        this.index = index;
        this.sequences = sequences;
    }

    /**
     * Parses the unit headers and indexes every sequence of {@code debugLine} once; DWARF 5 headers
     * take strings from {@code debugLineStr} and {@code debugStr}, either of which may be empty. The
     * table keeps {@code debugLine} as it is, to run sequences again. A damaged unit is skipped, or
     * keeps the sequences that ended before the damage; a unit length past the section ends the
     * reading. Fails only when the section has bytes but not one readable unit.
     */
    static LineTable of(byte[] debugLine, byte[] debugLineStr, byte[] debugStr) throws NativeDataException {
        return of(debugLine, debugLineStr, debugStr, LineIndexer.MAX_POINTS);
    }

    /** {@link #of(byte[], byte[], byte[])}, refused above {@code maxPoints} sequences and resume points. */
    static LineTable of(byte[] debugLine, byte[] debugLineStr, byte[] debugStr, int maxPoints)
            throws NativeDataException {
        LineStrings strings = new LineStrings(debugLineStr, debugStr);
        LineIndexer indexer = new LineIndexer(maxPoints);
        List<LineProgramHeader> headers = new ArrayList<>();
        NativeDataException firstFailure = null;
        int offset = 0;
        while (offset < debugLine.length) {
            int end;
            try {
                end = LineProgramHeader.unitEnd(debugLine, offset);
            } catch (NativeDataException e) {
                firstFailure = firstFailure == null ? e : firstFailure;
                break;
            }
            try {
                LineProgramHeader header = LineProgramHeader.read(debugLine, offset, strings);
                headers.add(index(debugLine, header, headers.size(), indexer));
            } catch (NativeDataException e) {
                firstFailure = firstFailure == null ? e : firstFailure;
            }
            if (indexer.full()) {
                throw new NativeDataException("line table of more than %d sequences and resume points"
                        .formatted(maxPoints));
            }
            offset = end;
        }
        if (headers.isEmpty() && firstFailure != null) {
            throw new NativeDataException("no readable line table unit: " + firstFailure.getMessage());
        }
        return indexer.table(debugLine, headers);
    }

    /** Runs unit number {@code number}'s program into the index; its header with the files it defines. */
    private static LineProgramHeader index(byte[] debugLine, LineProgramHeader header, int number, LineIndexer indexer) {
        indexer.startUnit(number, header);
        try {
            LineProgram.run(debugLine, header, LineState.sequenceStart(header.programStart()), indexer);
        } catch (NativeDataException e) {
            // The sequences that ended before the damage stay indexed.
        }
        return indexer.finishUnit();
    }

    /** How many sequences the table indexes. */
    int sequences() {
        return sequences;
    }

    /**
     * The row in force at {@code pc}, a link-time address as in the ELF file: the last row at or below
     * it in the sequence that covers it. Empty where no sequence covers it, or its row names no file.
     */
    Optional<SourceLine> at(long pc) {
        synchronized (recent) {
            Optional<SourceLine> known = recent.get(pc);
            if (known != null) {
                return known;
            }
        }
        Optional<SourceLine> found = find(pc);
        synchronized (recent) {
            recent.put(pc, found);
        }
        return found;
    }

    private Optional<SourceLine> find(long pc) {
        int last = index.lastAtOrBelow(pc);
        for (int i = last; i >= 0 && i > last - OVERLAP_SEARCH; i--) {
            if (index.reaches(i, pc)) {
                return rowAt(i, pc);
            }
        }
        return Optional.empty();
    }

    private Optional<SourceLine> rowAt(int point, long pc) {
        LineProgramHeader unit = units.get(index.unit(point));
        LineState from = index.state(point);
        LineRowAt row = new LineRowAt(pc, from);
        try {
            LineProgram.run(section, unit, from, row);
        } catch (NativeDataException e) {
            // Indexing read this sequence to its end, so its bytes read again the same way.
            return Optional.empty();
        }
        if (!row.found()) {
            return Optional.empty();
        }
        int line = Math.clamp(row.line(), 0, Integer.MAX_VALUE);
        return unit.file(row.file()).map(file -> new SourceLine(file, line));
    }
}
