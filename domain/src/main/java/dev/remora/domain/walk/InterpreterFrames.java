package dev.remora.domain.walk;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.VersionLayout;

/**
 * The {@code _PyInterpreterFrame} of CPython 3.11 on: an owner byte, an instruction pointer, and (3.11
 * only) an {@code is_entry} flag where later versions push an entry frame.
 */
final class InterpreterFrames extends FrameShape {

    private final long instrPtr;
    private final int owner;
    private final int isEntry;

    InterpreterFrames(DebugOffsets offsets) {
        this(offsets.frame(), offsets.layout());
    }

    InterpreterFrames(DebugOffsets.Frame frame, VersionLayout layout) {
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
    CallerLink callerLink(int owner) {
        return ownedByGenerator(owner) ? CallerLink.RESUMABLE : CallerLink.FIXED;
    }

    @Override
    boolean mayBeCaller(byte[] bytes, int at) {
        return true;
    }

    @Override
    boolean suspendedGenerator(byte[] bytes, int at) {
        return previous(bytes, at) == 0 && ownedByGenerator(owner(bytes, at));
    }

    @Override
    boolean calledFromC(byte[] bytes, int at) {
        return isEntry >= 0 && bytes[at + isEntry] != 0;
    }

    @Override
    long codeUnit(SnapshotReader reader, long executable, long instrPtr) {
        return instrPtr;
    }
}
