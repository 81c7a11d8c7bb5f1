package dev.remora.domain.linetable;

import java.io.ByteArrayOutputStream;

/** Writes line-table entries by form, so tests read as the table they describe. */
final class LineTableBuilder {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

    /** Same line, column below 80, width below 16. */
    LineTableBuilder shortForm(int codeUnits, int column, int width) {
        head(column >> 3, codeUnits);
        bytes.write(((column & 7) << 4) | width);
        return this;
    }

    /** Line moved by 0, 1 or 2; both columns below 128. */
    LineTableBuilder oneLine(int codeUnits, int lineDelta, int column, int endColumn) {
        head(10 + lineDelta, codeUnits);
        bytes.write(column);
        bytes.write(endColumn);
        return this;
    }

    LineTableBuilder noColumns(int codeUnits, int lineDelta) {
        head(13, codeUnits);
        signedVarint(lineDelta);
        return this;
    }

    /** Columns of -1 are written as absent. */
    LineTableBuilder longForm(int codeUnits, int lineDelta, int lineSpan, int column, int endColumn) {
        head(14, codeUnits);
        signedVarint(lineDelta);
        varint(lineSpan);
        varint(column + 1);
        varint(endColumn + 1);
        return this;
    }

    LineTableBuilder noLocation(int codeUnits) {
        head(15, codeUnits);
        return this;
    }

    LineTableBuilder raw(int... values) {
        for (int value : values) {
            bytes.write(value);
        }
        return this;
    }

    byte[] build() {
        return bytes.toByteArray();
    }

    private void head(int form, int codeUnits) {
        bytes.write(0x80 | (form << 3) | (codeUnits - 1));
    }

    private void signedVarint(int value) {
        varint(value < 0 ? (-value << 1) | 1 : value << 1);
    }

    private void varint(int value) {
        int rest = value;
        while ((rest & ~0x3F) != 0) {
            bytes.write(0x40 | (rest & 0x3F));
            rest >>>= 6;
        }
        bytes.write(rest);
    }
}
