package dev.remora.domain.nativestack;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Writes DWARF line number programs and the units around them, byte by byte as a compiler would, so
 * a test states its rows in opcodes. Headers use line base -5 and line range 14, as GCC does.
 */
final class LineProgramAssembler {

    static final int LINE_BASE = -5;
    static final int LINE_RANGE = 14;
    /** Operand counts of the twelve standard opcodes of DWARF 3 and later. */
    private static final int[] STANDARD_LENGTHS = {0, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0, 1};

    /** A file entry: its name and the index of its directory. */
    record FileEntry(String name, int directory) {}

    /** A DWARF 5 unit and the string sections its header points into. */
    record Unit5(byte[] debugLine, byte[] debugLineStr, byte[] debugStr) {}

    private final int opcodeBase;
    private final Bytes program = new Bytes();

    /** Programs for headers with {@code opcodeBase}: 13 is standard; 10 (DWARF 2) makes 10 to 12 special. */
    LineProgramAssembler(int opcodeBase) {
        this.opcodeBase = opcodeBase;
    }

    LineProgramAssembler() {
        this(13);
    }

    LineProgramAssembler copy() {
        program.u8(1);
        return this;
    }

    LineProgramAssembler advancePc(long by) {
        program.u8(2).uleb(by);
        return this;
    }

    LineProgramAssembler advanceLine(long by) {
        program.u8(3).sleb(by);
        return this;
    }

    LineProgramAssembler setFile(long file) {
        program.u8(4).uleb(file);
        return this;
    }

    LineProgramAssembler setColumn(long column) {
        program.u8(5).uleb(column);
        return this;
    }

    LineProgramAssembler negateStmt() {
        program.u8(6);
        return this;
    }

    LineProgramAssembler constAddPc() {
        program.u8(8);
        return this;
    }

    LineProgramAssembler fixedAdvancePc(int by) {
        program.u8(9).u16(by);
        return this;
    }

    LineProgramAssembler prologueEnd() {
        program.u8(10);
        return this;
    }

    /** A special opcode: advances the address and line, then adds a row. */
    LineProgramAssembler special(int addressAdvance, int lineAdvance) {
        int opcode = (lineAdvance - LINE_BASE) + LINE_RANGE * addressAdvance + opcodeBase;
        if (lineAdvance < LINE_BASE || lineAdvance >= LINE_BASE + LINE_RANGE || opcode > 255) {
            throw new IllegalArgumentException("no special opcode advances %d and %d".formatted(addressAdvance, lineAdvance));
        }
        program.u8(opcode);
        return this;
    }

    LineProgramAssembler setAddress(long address) {
        return extended(2, new Bytes().u64(address).bytes());
    }

    LineProgramAssembler endSequence() {
        return extended(1, new byte[0]);
    }

    LineProgramAssembler defineFile(String name, int directory) {
        return extended(3, new Bytes().string(name).uleb(directory).uleb(0).uleb(0).bytes());
    }

    LineProgramAssembler setDiscriminator(long value) {
        return extended(4, new Bytes().uleb(value).bytes());
    }

    LineProgramAssembler extended(int opcode, byte[] operands) {
        program.u8(0).uleb(operands.length + 1).u8(opcode).append(operands);
        return this;
    }

    /** Bytes as they are, for opcodes this assembler has no name for. */
    LineProgramAssembler raw(int... bytes) {
        for (int b : bytes) {
            program.u8(b);
        }
        return this;
    }

    byte[] program() {
        return program.bytes();
    }

    /**
     * A DWARF 2, 3 or 4 unit of this program: its include directories (index 1 on) and files (index 1
     * on). Opcodes from 13 below the opcode base take two operands each.
     */
    byte[] unit4(int version, List<String> directories, List<FileEntry> files) {
        Bytes header = new Bytes().u8(1); // minimum instruction length
        if (version >= 4) {
            header.u8(1); // operations per instruction
        }
        header.u8(1).u8(LINE_BASE & 0xff).u8(LINE_RANGE).u8(opcodeBase);
        standardLengths(header);
        for (String d : directories) {
            header.string(d);
        }
        header.u8(0);
        for (FileEntry f : files) {
            header.string(f.name()).uleb(f.directory()).uleb(0).uleb(0);
        }
        header.u8(0);
        Bytes afterLength = new Bytes().u16(version).u32(header.size()).append(header.bytes()).append(program());
        return new Bytes().u32(afterLength.size()).append(afterLength.bytes()).bytes();
    }

    /**
     * A DWARF 5 unit of this program, 32-bit: directory names in {@code .debug_str} (DW_FORM_strp), file
     * names in {@code .debug_line_str} (DW_FORM_line_strp) with a directory index (data1), an MD5
     * (data16) and a vendor's block. The directories start with the compilation directory and the files
     * with the primary source, both at index 0.
     */
    Unit5 unit5(List<String> directories, List<FileEntry> files) {
        return unit5(directories, files, 4);
    }

    /** {@link #unit5(List, List)} in 64-bit DWARF when {@code offsetSize} is 8. */
    Unit5 unit5(List<String> directories, List<FileEntry> files, int offsetSize) {
        return unit5(directories, files, offsetSize, directories.size());
    }

    /** {@link #unit5(List, List, int)} whose header claims {@code directoryCount} directories. */
    Unit5 unit5(List<String> directories, List<FileEntry> files, int offsetSize, long directoryCount) {
        Bytes str = new Bytes().string("unused");
        Bytes lineStr = new Bytes().string("unused");
        Bytes header = new Bytes().u8(1).u8(1).u8(1).u8(LINE_BASE & 0xff).u8(LINE_RANGE).u8(opcodeBase);
        standardLengths(header);
        header.u8(1).uleb(1).uleb(LineForms.STRP);
        header.uleb(directoryCount);
        for (String d : directories) {
            header.offset(str.size(), offsetSize);
            str.string(d);
        }
        header.u8(4).uleb(1).uleb(LineForms.LINE_STRP).uleb(2).uleb(LineForms.DATA1)
                .uleb(5).uleb(LineForms.DATA16).uleb(0x2001).uleb(LineForms.BLOCK);
        header.uleb(files.size());
        for (FileEntry f : files) {
            header.offset(lineStr.size(), offsetSize);
            lineStr.string(f.name());
            header.u8(f.directory()).append(new byte[16]).uleb(3).u8(7).u8(7).u8(7);
        }
        Bytes afterLength = new Bytes().u16(5).u8(8).u8(0).offset(header.size(), offsetSize)
                .append(header.bytes()).append(program());
        Bytes unit = offsetSize == 8 ? new Bytes().u32(0xffff_ffffL).u64(afterLength.size())
                : new Bytes().u32(afterLength.size());
        return new Unit5(unit.append(afterLength.bytes()).bytes(), lineStr.bytes(), str.bytes());
    }

    /** Units side by side, as in one section. */
    static byte[] concat(byte[]... units) {
        Bytes out = new Bytes();
        for (byte[] u : units) {
            out.append(u);
        }
        return out.bytes();
    }

    private void standardLengths(Bytes header) {
        for (int op = 1; op < opcodeBase; op++) {
            header.u8(op < STANDARD_LENGTHS.length ? STANDARD_LENGTHS[op] : 2);
        }
    }

    /** A growing little-endian byte buffer. */
    static final class Bytes {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bytes u8(int v) {
            out.write(v);
            return this;
        }

        Bytes u16(int v) {
            return u8(v).u8(v >>> 8);
        }

        Bytes u32(long v) {
            return u16((int) v & 0xffff).u16((int) (v >>> 16) & 0xffff);
        }

        Bytes u64(long v) {
            return u32(v & 0xffff_ffffL).u32(v >>> 32);
        }

        Bytes offset(long v, int size) {
            return size == 8 ? u64(v) : u32(v);
        }

        Bytes uleb(long v) {
            do {
                int b = (int) (v & 0x7f);
                v >>>= 7;
                u8(v != 0 ? b | 0x80 : b);
            } while (v != 0);
            return this;
        }

        Bytes sleb(long v) {
            while (true) {
                int b = (int) (v & 0x7f);
                v >>= 7;
                boolean done = (v == 0 && (b & 0x40) == 0) || (v == -1 && (b & 0x40) != 0);
                u8(done ? b : b | 0x80);
                if (done) {
                    return this;
                }
            }
        }

        Bytes string(String s) {
            return append(s.getBytes(StandardCharsets.UTF_8)).u8(0);
        }

        Bytes append(byte[] b) {
            out.writeBytes(b);
            return this;
        }

        int size() {
            return out.size();
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }
}
