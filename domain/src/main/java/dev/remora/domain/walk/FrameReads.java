package dev.remora.domain.walk;

import dev.remora.ports.MemoryAccessException;

/** Where a walk reads its frames from: a copy of the stack read in one go, or the snapshot's reader. */
sealed interface FrameReads permits CopiedFrames, ReaderFrames {

    /**
     * Reads the frame at {@code address} of the stack whose current frame is {@code first} into
     * {@code dst}.
     *
     * @return whether it came from a copy whose second copy can prove it
     */
    boolean read(long address, long first, byte[] dst) throws MemoryAccessException;

    /** Whether the walk read so many frames apart from a copy that copying again is better. */
    boolean tooManyApart();
}
