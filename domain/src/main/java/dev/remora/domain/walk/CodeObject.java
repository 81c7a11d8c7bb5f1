package dev.remora.domain.walk;

import dev.remora.domain.linetable.LineTable;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;


/**
 * A decoded code object of the target, with the frames it has produced so far memoised by
 * instruction index: a sampler meets the same few instructions over and over.
 */
final class CodeObject {


    private final String qualname;
    private final String filename;
    private final byte[] lineTable;
    private final int firstLineNo;
    /** Address of the first code unit ({@code co_code_adaptive}). */
    private final long codeStart;
    private final long qualnamePointer;
    private final long lineTablePointer;
    private final FramesByInstruction frames = new FramesByInstruction();

    CodeObject(String qualname, String filename, byte[] lineTable, int firstLineNo, long codeStart,
               long qualnamePointer, long lineTablePointer) {
        this.qualnamePointer = qualnamePointer;
        this.lineTablePointer = lineTablePointer;
        this.qualname = qualname;
        this.filename = filename;
        this.lineTable = lineTable;
        this.firstLineNo = firstLineNo;
        this.codeStart = codeStart;
    }

    long qualnamePointer() {
        return qualnamePointer;
    }

    long lineTablePointer() {
        return lineTablePointer;
    }

    FrameInfo frameAt(long instrPtr) {
        long units = (instrPtr - codeStart) >> 1;
        if (instrPtr < codeStart || units > Integer.MAX_VALUE) {
            return new FrameInfo(qualname, filename, SourceLocation.NONE);
        }
        int index = (int) units;
        FrameInfo known = frames.get(index);
        if (known == null) {
            known = new FrameInfo(qualname, filename, LineTable.locate(lineTable, lineTable.length, firstLineNo, index));
            frames.put(index, known);
        }
        return known;
    }
}
