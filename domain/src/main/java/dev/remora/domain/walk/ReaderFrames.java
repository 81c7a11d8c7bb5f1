package dev.remora.domain.walk;

import dev.remora.domain.memory.SnapshotReader;
import dev.remora.ports.MemoryAccessException;

/** Frames read one by one through the snapshot's reader, proven afterwards by reading them back. */
record ReaderFrames(SnapshotReader reader) implements FrameReads {

    @Override
    public boolean read(long address, long first, byte[] dst) throws MemoryAccessException {
        reader.read(address, dst, 0, dst.length);
        return false;
    }

    @Override
    public boolean tooManyApart() {
        return false;
    }
}
