package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.ports.MemoryAccessException;

/**
 * Frames read from a {@link StackCopy}, proven by its second copy: every walked frame the copy held
 * must read the same in both, its link to its caller and its code. Frames the copy lacks are read
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
    private InnermostReading innermost;

    CopiedFrames(SnapshotReader reader, FrameShape shape) {
        this.reader = reader;
        this.shape = shape;
    }

    /** Starts a walk over {@code stack}. */
    CopiedFrames over(StackCopy stack) {
        copy = stack;
        readApart = 0;
        innermost = InnermostReading.BOTH_COPIES;
        return this;
    }

    @Override
    public boolean read(long address, long first, byte[] dst) throws MemoryAccessException {
        if (!copy.frame(address, dst)) {
            readApart++;
            reader.readApart(address, dst, 0, dst.length);
            return false;
        }
        if (address == first) {
            innermost = innermost(address, dst);
        } else if (shape.suspendedGenerator(dst, 0)) {
            // A generator that the frame above it says ran at the thread state's moment, suspended when
            // first copied: taken from the second copy when that shows it resumed again.
            resumedInSecondCopy(address, dst);
        }
        return true;
    }

    @Override
    public boolean tooManyApart() {
        return readApart > MAX_READ_APART;
    }

    /** Whether every walked frame the copy held reads the same in its second copy. */
    boolean proves(WalkedFrames walked) {
        return unchangedInSecondCopy(walked, innermost);
    }

    /**
     * Whether every walked frame that the copy held reads the same in the second copy: its link to its
     * caller (or, a generator's frame, no link: it yielded since) and its code. (A caller's instruction
     * may have moved on between the copies, to its next call: its line is the one it had during the
     * first.)
     */
    boolean unchangedInSecondCopy(WalkedFrames walked, InnermostReading reading) {
        byte[] bytes = copy.bytes();
        for (int i = reading.firstChecked(); i < walked.frames(); i++) {
            // A frame read apart is not among those copied.
            int at = copy.secondCopyOf(walked.address(i), shape.size());
            if (at >= 0 && (!walked.callerLink(i).holds(walked.previous(i), shape.previous(bytes, at))
                    || shape.rawExecutable(bytes, at) != walked.executable(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Copies the second copy of a frame into {@code dst} when it shows the frame linked to a caller
     * under the same code: a generator's frame read as suspended in the first copy (no caller), though
     * the thread state named a frame above it, resumed again by the second. False when the copy holds
     * no such second reading; {@code dst} then keeps the first.
     */
    boolean resumedInSecondCopy(long address, byte[] dst) {
        byte[] bytes = copy.bytes();
        int at = copy.secondCopyOf(address, dst.length);
        if (at < 0 || shape.previous(bytes, at) == 0 || shape.rawExecutable(bytes, at) != shape.rawExecutable(dst, 0)) {
            return false;
        }
        System.arraycopy(bytes, at, dst, 0, dst.length);
        return true;
    }

    /**
     * The innermost frame as the copies found it, {@code dst} holding its first copy. Where a frame's
     * code reads cleared (3.14+ clears it as the frame returns; a freed 3.10 frame object may read so)
     * in the first copy and not in the second, the second copy's bytes replace {@code dst}'s: with the
     * thread state read between the copies, the named frame was pushed after the first; read before
     * them (3.14+), it returned before the first copy and a call filled its slot again by the second
     * (in a loop, mostly the same function, called from the same caller). A frame popped before the
     * second copy is taken from the first. A microsecond call is the innermost frame a proof of both
     * copies rejects most often, and a tick read again after such a rejection lands mostly between
     * calls. Another frame in the slot is left to the proof: taking it showed impossible stacks on a
     * target that churns through calls.
     */
    InnermostReading innermost(long address, byte[] dst) {
        byte[] bytes = copy.bytes();
        int at = copy.secondCopyOf(address, dst.length);
        if (at < 0) {
            return InnermostReading.BOTH_COPIES;
        }
        boolean firstLive = shape.executable(dst, 0) != 0;
        boolean secondLive = shape.executable(bytes, at) != 0;
        if (secondLive && !firstLive) {
            // Cleared in the first copy, a frame in the second: pushed between them, or returned and called again.
            System.arraycopy(bytes, at, dst, 0, dst.length);
            return InnermostReading.BOTH_COPIES;
        }
        // Popped (its code cleared) before the second copy; any other change is the proof's to judge.
        return firstLive && !secondLive ? InnermostReading.FIRST_COPY_ONLY : InnermostReading.BOTH_COPIES;
    }

    /** Which copies hold the innermost frame as the walk read it. */
    enum InnermostReading {
        /** Both copies hold the walked frame (or it came from neither): each is checked against its second. */
        BOTH_COPIES,
        /** Popped (its code cleared) by the second copy: the first holds it, the second cannot prove it. */
        FIRST_COPY_ONLY;

        /** The first frame whose second copy must match. */
        int firstChecked() {
            return this == FIRST_COPY_ONLY ? 1 : 0;
        }
    }

}
