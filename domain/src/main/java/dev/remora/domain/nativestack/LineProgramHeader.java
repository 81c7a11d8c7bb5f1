package dev.remora.domain.nativestack;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One unit's line program header (DWARF 2 to 5, 32- or 64-bit): where its opcodes lie in
 * {@code .debug_line}, the constants that decode them, and its file names.
 *
 * @param programStart the section offset of the unit's first opcode
 * @param end the section offset just past the unit
 * @param standardOpcodeLengths operand counts by standard opcode, entry 0 unused
 * @param directories by directory index, for the files a program defines
 * @param files by file index less {@link #firstFile()}
 */
record LineProgramHeader(int version, int programStart, int end, int minimumInstructionLength, int lineBase,
                         int lineRange, int opcodeBase, List<Integer> standardOpcodeLengths,
                         List<String> directories, List<String> files) {

    private static final long DWARF64 = 0xffff_ffffL;
    private static final long RESERVED_LENGTHS = 0xffff_fff0L;

    /** The section offset just past the unit at {@code offset}, from its length alone. */
    static int unitEnd(byte[] section, int offset) throws NativeDataException {
        DwarfCursor c = new DwarfCursor(section, offset, section.length);
        long length = unitLength(c);
        return c.position() + c.length(length);
    }

    /** The header of the unit at {@code offset}. */
    static LineProgramHeader read(byte[] section, int offset, LineStrings strings) throws NativeDataException {
        DwarfCursor c = new DwarfCursor(section, offset, section.length);
        long length = unitLength(c);
        int offsetSize = c.position() - offset == 4 ? 4 : 8;
        int end = c.position() + c.length(length);
        c = new DwarfCursor(section, c.position(), end);
        int version = c.u16();
        if (version < 2 || version > 5) {
            throw new NativeDataException("line table version " + version);
        }
        if (version >= 5) {
            c.u8(); // address size: DW_LNE_set_address carries its own
            c.u8(); // segment selector size
        }
        long headerLength = offsetSize == 8 ? c.u64() : c.u32();
        int programStart = c.position() + c.length(headerLength);
        int minimumInstructionLength = c.u8();
        if (version >= 4) {
            c.u8(); // operations per instruction: VLIW bundles are read as one operation
        }
        c.u8(); // default is_stmt
        int lineBase = (byte) c.u8();
        int lineRange = c.u8();
        int opcodeBase = c.u8();
        if (lineRange == 0 || opcodeBase == 0) {
            throw new NativeDataException("line range %d, opcode base %d".formatted(lineRange, opcodeBase));
        }
        List<Integer> lengths = new ArrayList<>(opcodeBase);
        lengths.add(0);
        for (int i = 1; i < opcodeBase; i++) {
            lengths.add(c.u8());
        }
        DwarfCursor tables = new DwarfCursor(section, c.position(), programStart);
        LineFileTables t = version >= 5 ? LineFileTables.version5(tables, offsetSize, strings)
                : LineFileTables.version4(tables);
        return new LineProgramHeader(version, programStart, end, minimumInstructionLength, lineBase, lineRange,
                opcodeBase, List.copyOf(lengths), t.directories(), t.files());
    }

    /** The file index of the first entry: 0 in DWARF 5 (the primary source), 1 before. */
    int firstFile() {
        return version >= 5 ? 0 : 1;
    }

    Optional<String> file(long index) {
        long i = index - firstFile();
        return i >= 0 && i < files.size() ? Optional.of(files.get((int) i)) : Optional.empty();
    }

    /** This header with another file table: its own names shared, and the files its program defines. */
    LineProgramHeader withFiles(List<String> all) {
        return new LineProgramHeader(version, programStart, end, minimumInstructionLength, lineBase, lineRange,
                opcodeBase, standardOpcodeLengths, directories, List.copyOf(all));
    }

    private static long unitLength(DwarfCursor c) throws NativeDataException {
        long length = c.u32();
        if (length == DWARF64) {
            return c.u64();
        }
        if (length >= RESERVED_LENGTHS) {
            throw new NativeDataException("reserved unit length 0x%x".formatted(length));
        }
        return length;
    }
}
