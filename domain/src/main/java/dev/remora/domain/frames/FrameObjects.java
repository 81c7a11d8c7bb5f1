package dev.remora.domain.frames;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.LastInstruction;
import dev.remora.ports.MemoryAccessException;

/**
 * CPython 3.8 to 3.10's frames: heap {@code PyFrameObject}s with a state (3.8 and 3.9: an executing
 * flag) and a last instruction, no owner. Every frame counts as the thread's own; any may be a
 * generator's, so every link to a caller may be cleared by a yield. The last instruction stands in as
 * an address, {@code code + byte offset}, as later versions keep one, and is turned back where the
 * code unit is read.
 */
public final class FrameObjects extends FrameShape {

    private final long instrIndex;
    private final LastInstruction lastInstruction;
    private final DebugOffsets.FrameObject states;
    private final int state;
    private final int threadOwner;
    /** Where a code object points at its bytecode, and where a bytes object's data starts. */
    private final long bytecode;
    private final long bytesData;
    private final byte[] pointer = new byte[8];

    FrameObjects(DebugOffsets offsets) {
        super(offsets.frame(), offsets.layout());
        this.instrIndex = offsets.frame().instrPtr();
        this.lastInstruction = offsets.layout().lastInstruction();
        this.states = offsets.frame().frameObject().orElseThrow();
        this.state = (int) states.state();
        this.threadOwner = offsets.layout().owners().thread();
        this.bytecode = offsets.code().bytecode().orElse(-1);
        this.bytesData = offsets.bytes().obSval();
    }

    @Override
    public long instrPtr(byte[] bytes, int at) {
        return rawExecutable(bytes, at) + lastInstruction.byteOffset(Bytes.getInt(bytes, at + (int) instrIndex));
    }

    @Override
    public int owner(byte[] bytes, int at) {
        return threadOwner;
    }

    @Override
    public CallerLink callerLink(int owner) {
        return CallerLink.RESUMABLE;
    }

    /**
     * Every caller in a running chain executes (it waits in its call) or unwinds; one that does
     * neither was suspended or finished meanwhile.
     */
    @Override
    public boolean mayBeCaller(byte[] bytes, int at) {
        return states.inChain(bytes[at + state]);
    }

    /** A freed frame object keeps its code: its state tells it from a running one. */
    @Override
    public boolean running(byte[] bytes, int at) {
        return super.running(bytes, at) && mayBeCaller(bytes, at);
    }

    /** Its code kept, its state that of a finished call: not a suspended generator, nor garbage. */
    @Override
    public boolean freedObject(byte[] bytes, int at) {
        return super.running(bytes, at) && states.finished(bytes[at + state]);
    }

    @Override
    public boolean returned(byte[] bytes, int at) {
        return freedObject(bytes, at);
    }

    @Override
    public boolean suspendedGenerator(byte[] bytes, int at) {
        return previous(bytes, at) == 0 && !mayBeCaller(bytes, at);
    }

    @Override
    public boolean calledFromC(byte[] bytes, int at) {
        return false;
    }

    @Override
    public boolean lastOfEvalCall(byte[] bytes, int at) {
        return true;
    }

    /** The code unit lies in the code's separate bytecode object. */
    @Override
    public long codeUnit(SnapshotReader reader, long executable, long instrPtr) throws MemoryAccessException {
        long index = (instrPtr - executable) / 2;
        if (index < 0 || bytecode < 0) {
            return 0;
        }
        reader.readApart(executable + bytecode, pointer, 0, 8);
        return Bytes.getLong(pointer, 0) + bytesData + 2 * index;
    }
}
