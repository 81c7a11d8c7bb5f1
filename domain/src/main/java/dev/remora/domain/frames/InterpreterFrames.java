package dev.remora.domain.frames;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.VersionLayout;

/**
 * The {@code _PyInterpreterFrame} of CPython 3.11 on: an owner byte, an instruction pointer, and (3.11
 * only) an {@code is_entry} flag where later versions push an entry frame.
 */
public final class InterpreterFrames extends FrameShape {

    private final long instrPtr;
    private final int owner;
    private final int isEntry;

    InterpreterFrames(DebugOffsets offsets) {
        this(offsets.frame(), offsets.layout());
    }

    public InterpreterFrames(DebugOffsets.Frame frame, VersionLayout layout) {
        super(frame, layout);
        this.instrPtr = frame.instrPtr();
        this.owner = (int) frame.owner().getAsLong();
        this.isEntry = (int) frame.isEntry().orElse(-1);
    }

    @Override
    public long instrPtr(byte[] bytes, int at) {
        return Bytes.getLong(bytes, at + (int) instrPtr);
    }

    @Override
    public int owner(byte[] bytes, int at) {
        return bytes[at + owner] & 0xFF;
    }

    @Override
    public CallerLink callerLink(int owner) {
        return ownedByGenerator(owner) ? CallerLink.RESUMABLE : CallerLink.FIXED;
    }

    @Override
    public boolean mayBeCaller(byte[] bytes, int at) {
        return true;
    }

    @Override
    public boolean suspendedGenerator(byte[] bytes, int at) {
        return previous(bytes, at) == 0 && ownedByGenerator(owner(bytes, at));
    }

    @Override
    public boolean calledFromC(byte[] bytes, int at) {
        return isEntry >= 0 && bytes[at + isEntry] != 0;
    }

    @Override
    public boolean lastOfEvalCall(byte[] bytes, int at) {
        return calledFromC(bytes, at);
    }

    @Override
    public long codeUnit(SnapshotReader reader, long executable, long instrPtr) {
        return instrPtr;
    }
}
