package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.ports.MemoryAccessException;

/**
 * Frames read from a {@link StackCopy}, proven by its second copy. Frames the copy lacks are read
 * apart (the next copy holds them), up to {@link #MAX_READ_APART} in one walk. Reused from walk to
 * walk: {@link #over} starts one.
 */
final class CopiedFrames implements FrameReads {

    /** Frames a copied walk may read apart (the copy lacked them) before it gives up and copies again. */
    static final int MAX_READ_APART = 1 << 16;

    private final SnapshotReader reader;
    private final FrameShape shape;
    private StackCopy copy;
    private int readApart;
    private StackCopy.InnermostReading innermost;

    CopiedFrames(SnapshotReader reader, FrameShape shape) {
        this.reader = reader;
        this.shape = shape;
    }

    /** Starts a walk over {@code stack}. */
    CopiedFrames over(StackCopy stack) {
        copy = stack;
        readApart = 0;
        innermost = StackCopy.InnermostReading.BOTH_COPIES;
        return this;
    }

    StackCopy copy() {
        return copy;
    }

    @Override
    public boolean read(long address, long first, byte[] dst) throws MemoryAccessException {
        if (!copy.frame(address, dst)) {
            readApart++;
            reader.readApart(address, dst, 0, dst.length);
            return false;
        }
        if (address == first) {
            innermost = copy.innermost(address, dst, shape);
        } else if (shape.suspendedGenerator(dst, 0)) {
            // A generator suspended when first copied: resumed by the thread state's moment, as the
            // frame above it says, when the second copy shows it linked again.
            copy.resumedInSecondCopy(address, dst, shape);
        }
        return true;
    }

    @Override
    public boolean tooManyApart() {
        return readApart > MAX_READ_APART;
    }

    /** Whether every walked frame the copy held reads the same in its second copy. */
    boolean proves(WalkedFrames walked) {
        return copy.unchangedInSecondCopy(walked, shape, innermost);
    }
}
