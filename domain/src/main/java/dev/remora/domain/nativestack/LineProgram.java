package dev.remora.domain.nativestack;

/**
 * Runs a unit's line number program, the DWARF state machine, from a given state to the unit's end.
 * Every opcode takes at least one byte, so a run is bounded by the bytes it covers; a read past the
 * unit is a {@link NativeDataException}. Only the address, file and line registers are kept; VLIW
 * operation indexes are not (an advance counts whole instructions).
 */
final class LineProgram {

    private static final int DW_LNS_COPY = 1;
    private static final int DW_LNS_ADVANCE_PC = 2;
    private static final int DW_LNS_ADVANCE_LINE = 3;
    private static final int DW_LNS_SET_FILE = 4;
    private static final int DW_LNS_SET_COLUMN = 5;
    private static final int DW_LNS_NEGATE_STMT = 6;
    private static final int DW_LNS_SET_BASIC_BLOCK = 7;
    private static final int DW_LNS_CONST_ADD_PC = 8;
    private static final int DW_LNS_FIXED_ADVANCE_PC = 9;
    private static final int DW_LNS_SET_PROLOGUE_END = 10;
    private static final int DW_LNS_SET_EPILOGUE_BEGIN = 11;
    private static final int DW_LNS_SET_ISA = 12;
    private static final int DW_LNE_END_SEQUENCE = 1;
    private static final int DW_LNE_SET_ADDRESS = 2;
    private static final int DW_LNE_DEFINE_FILE = 3;
    private static final int MAX_SPECIAL = 255;

    private LineProgram() {}

    static void run(byte[] section, LineProgramHeader unit, LineState from, LineRows rows) throws NativeDataException {
        DwarfCursor c = new DwarfCursor(section, from.offset(), unit.end());
        int opcodeBase = unit.opcodeBase();
        int lineRange = unit.lineRange();
        long minimumLength = unit.minimumInstructionLength();
        long address = from.address();
        long file = from.file();
        long line = from.line();
        while (!c.atEnd()) {
            int opcode = c.u8();
            if (opcode >= opcodeBase) {
                int adjusted = opcode - opcodeBase;
                address += adjusted / lineRange * minimumLength;
                line += unit.lineBase() + adjusted % lineRange;
                if (!rows.row(address, file, line, c.position())) {
                    return;
                }
                continue;
            }
            switch (opcode) {
                case 0 -> {
                    int end = c.length(c.uleb()) + c.position();
                    int extended = end > c.position() ? c.u8() : 0;
                    if (extended == DW_LNE_END_SEQUENCE) {
                        c.seek(end);
                        if (!rows.endSequence(address, end)) {
                            return;
                        }
                        address = 0;
                        file = 1;
                        line = 1;
                    } else if (extended == DW_LNE_SET_ADDRESS) {
                        address = littleEndian(c, end - c.position());
                    } else if (extended == DW_LNE_DEFINE_FILE) {
                        DwarfCursor entry = new DwarfCursor(section, c.position(), end);
                        String name = LineStrings.inline(entry);
                        rows.defineFile(name, entry.uleb());
                    }
                    // Others (set_discriminator, vendors' opcodes) change nothing kept here.
                    c.seek(end);
                }
                case DW_LNS_COPY -> {
                    if (!rows.row(address, file, line, c.position())) {
                        return;
                    }
                }
                case DW_LNS_ADVANCE_PC -> address += c.uleb() * minimumLength;
                case DW_LNS_ADVANCE_LINE -> line += c.sleb();
                case DW_LNS_SET_FILE -> file = c.uleb();
                case DW_LNS_SET_COLUMN, DW_LNS_SET_ISA -> c.uleb();
                case DW_LNS_NEGATE_STMT, DW_LNS_SET_BASIC_BLOCK, DW_LNS_SET_PROLOGUE_END, DW_LNS_SET_EPILOGUE_BEGIN -> {
                }
                case DW_LNS_CONST_ADD_PC -> address += (MAX_SPECIAL - opcodeBase) / lineRange * minimumLength;
                case DW_LNS_FIXED_ADVANCE_PC -> address += c.u16();
                default -> {
                    // A standard opcode newer than this reader: the header says how many operands it has.
                    for (int i = unit.standardOpcodeLengths().get(opcode); i > 0; i--) {
                        c.uleb();
                    }
                }
            }
        }
    }

    /** An address operand of {@code size} bytes; bytes past the eighth cannot be part of one. */
    private static long littleEndian(DwarfCursor c, int size) throws NativeDataException {
        long value = 0;
        for (int i = 0; i < Math.min(size, Long.BYTES); i++) {
            value |= (long) c.u8() << (8 * i);
        }
        return value;
    }
}
