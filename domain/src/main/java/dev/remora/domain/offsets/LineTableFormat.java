package dev.remora.domain.offsets;

import dev.remora.domain.linetable.LineNotes;
import dev.remora.domain.linetable.LineNumberTable;
import dev.remora.domain.linetable.LineTable;
import dev.remora.domain.linetable.SourceLocation;

/** What a code object's {@code co_linetable} holds. */
public enum LineTableFormat {
    /** 3.8 and 3.9: {@code co_lnotab}, address and line increments, no columns. */
    LINE_NOTES {
        @Override
        public SourceLocation locate(byte[] table, int length, int firstLineNo, int codeUnitIndex) {
            return LineNotes.locate(table, length, firstLineNo, codeUnitIndex);
        }
    },
    /** 3.10 (PEP 626): byte ranges and line deltas, no columns. */
    LINES {
        @Override
        public SourceLocation locate(byte[] table, int length, int firstLineNo, int codeUnitIndex) {
            return LineNumberTable.locate(table, length, firstLineNo, codeUnitIndex);
        }
    },
    /** 3.11+: the location table, lines and columns per code unit. */
    LOCATIONS {
        @Override
        public SourceLocation locate(byte[] table, int length, int firstLineNo, int codeUnitIndex) {
            return LineTable.locate(table, length, firstLineNo, codeUnitIndex);
        }
    };

    /** The position of the instruction at {@code codeUnitIndex}. */
    public abstract SourceLocation locate(byte[] table, int length, int firstLineNo, int codeUnitIndex);
}
