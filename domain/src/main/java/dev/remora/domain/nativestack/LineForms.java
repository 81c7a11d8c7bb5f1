package dev.remora.domain.nativestack;

/**
 * The attribute forms a DWARF 5 line table header may give its directory and file entries: read as a
 * path, as a number, or skipped by size. Any other form is a {@link NativeDataException}, as its size
 * is unknown.
 */
final class LineForms {

    static final int BLOCK2 = 0x03;
    static final int BLOCK4 = 0x04;
    static final int DATA2 = 0x05;
    static final int DATA4 = 0x06;
    static final int DATA8 = 0x07;
    static final int STRING = 0x08;
    static final int BLOCK = 0x09;
    static final int BLOCK1 = 0x0a;
    static final int DATA1 = 0x0b;
    static final int FLAG = 0x0c;
    static final int SDATA = 0x0d;
    static final int STRP = 0x0e;
    static final int UDATA = 0x0f;
    static final int SEC_OFFSET = 0x17;
    static final int STRX = 0x1a;
    static final int DATA16 = 0x1e;
    static final int LINE_STRP = 0x1f;
    static final int STRX1 = 0x25;
    static final int STRX4 = 0x28;

    private LineForms() {}

    /** A path: inline, or an offset into one of the string sections. */
    static String string(DwarfCursor c, long form, int offsetSize, LineStrings strings) throws NativeDataException {
        if (form == STRING) {
            return LineStrings.inline(c);
        }
        if (form == LINE_STRP) {
            return LineStrings.at(strings.lineStr(), offset(c, offsetSize));
        }
        if (form == STRP) {
            return LineStrings.at(strings.str(), offset(c, offsetSize));
        }
        throw new NativeDataException("path in form 0x%x".formatted(form));
    }

    /** An unsigned number, as a directory index is given. */
    static long unsigned(DwarfCursor c, long form) throws NativeDataException {
        if (form == UDATA) {
            return c.uleb();
        }
        if (form == DATA1) {
            return c.u8();
        }
        if (form == DATA2) {
            return c.u16();
        }
        if (form == DATA4) {
            return c.u32();
        }
        if (form == DATA8) {
            return c.u64();
        }
        throw new NativeDataException("number in form 0x%x".formatted(form));
    }

    /** Moves past a value this reader has no use for (a time stamp, a size, an MD5, a vendor's content). */
    static void skip(DwarfCursor c, long form, int offsetSize) throws NativeDataException {
        if (form == STRING) {
            LineStrings.inline(c);
        } else if (form == STRP || form == LINE_STRP || form == SEC_OFFSET) {
            c.skip(offsetSize);
        } else if (form == UDATA || form == STRX) {
            c.uleb();
        } else if (form == SDATA) {
            c.sleb();
        } else if (form == DATA1 || form == FLAG) {
            c.skip(1);
        } else if (form == DATA2) {
            c.skip(2);
        } else if (form == DATA4) {
            c.skip(4);
        } else if (form == DATA8) {
            c.skip(8);
        } else if (form == DATA16) {
            c.skip(16);
        } else if (form >= STRX1 && form <= STRX4) {
            c.skip(form - STRX1 + 1);
        } else if (form == BLOCK) {
            c.skip(c.uleb());
        } else if (form == BLOCK1) {
            c.skip(c.u8());
        } else if (form == BLOCK2) {
            c.skip(c.u16());
        } else if (form == BLOCK4) {
            c.skip(c.u32());
        } else {
            throw new NativeDataException("unknown form 0x%x".formatted(form));
        }
    }

    private static long offset(DwarfCursor c, int offsetSize) throws NativeDataException {
        return offsetSize == 8 ? c.u64() : c.u32();
    }
}
