package dev.remora.domain.walk;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.offsets.LineTableFormat;


/**
 * A decoded code object of the target, with the frames it has produced so far memoised by
 * instruction index: a sampler meets the same few instructions over and over.
 */
final class CodeObject {


    private final String qualname;
    private final String filename;
    private final byte[] lineTable;
    private final int firstLineNo;
    /** The code object's own address. */
    private final long address;
    /** Address of the first code unit ({@code co_code_adaptive}). */
    private final long codeStart;
    /** Address just past the last code unit. */
    private final long codeEnd;
    private final long qualnamePointer;
    private final long lineTablePointer;
    private final LineTableFormat format;
    /** {@code co_framesize} where known (3.11+), else 0. */
    private final int frameSlots;
    private final FramesByInstruction frames = new FramesByInstruction();

    CodeObject(String qualname, String filename, byte[] lineTable, LineTableFormat format, int firstLineNo, int frameSlots,
               long address, long codeStart, long codeEnd, long qualnamePointer, long lineTablePointer) {
        this.address = address;
        this.codeEnd = codeEnd;
        this.format = format;
        this.frameSlots = frameSlots;
        this.qualnamePointer = qualnamePointer;
        this.lineTablePointer = lineTablePointer;
        this.qualname = qualname;
        this.filename = filename;
        this.lineTable = lineTable;
        this.firstLineNo = firstLineNo;
        this.codeStart = codeStart;
    }

    /** The pointers a frame of this code takes on the data stack, header included; 0 where unknown. */
    int frameSlots() {
        return frameSlots;
    }

    long address() {
        return address;
    }

    long codeStart() {
        return codeStart;
    }

    /** Whether {@code instrPtr} points at one of this code's units. */
    boolean holdsInstruction(long instrPtr) {
        return instrPtr >= codeStart && instrPtr < codeEnd;
    }

    long qualnamePointer() {
        return qualnamePointer;
    }

    long lineTablePointer() {
        return lineTablePointer;
    }

    /**
     * The frame at the instruction {@code instrPtr} points at. One code unit before the first is a
     * frame that has not started (3.10 reports it on {@code co_firstlineno}, later versions on no line).
     */
    FrameInfo frameAt(long instrPtr) {
        long units = (instrPtr - codeStart) >> 1;
        if (instrPtr < codeStart - 2 || units > Integer.MAX_VALUE) {
            return FrameInfo.ofCode(qualname, filename, SourceLocation.NONE, firstLineNo);
        }
        int index = (int) units;
        if (index < 0) {
            return FrameInfo.ofCode(qualname, filename, format.locate(lineTable, lineTable.length, firstLineNo, index), firstLineNo);
        }
        FrameInfo known = frames.get(index);
        if (known == null) {
            known = FrameInfo.ofCode(qualname, filename, format.locate(lineTable, lineTable.length, firstLineNo, index), firstLineNo);
            frames.put(index, known);
        }
        return known;
    }
}
