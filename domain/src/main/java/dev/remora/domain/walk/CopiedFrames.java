package dev.remora.domain.walk;

import dev.remora.domain.frames.CallerLink;
import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.PoppedFrames;
import dev.remora.ports.MemoryAccessException;


/**
 * Frames read from a {@link StackCopy}, proven by its second copy: every walked frame the copy held
 * must read the same in both, its link to its caller and its code; and, where a returned frame's code
 * reads cleared and frame sizes are known ({@link DataStackProof#FRAME_SIZES}), data-stack frames must
 * also lie where they were pushed. Frames the copy lacks are read apart (the next copy holds them), up
 * to {@link #MAX_READ_APART} in one walk. Reused from walk to walk: {@link #over} starts one.
 */
final class CopiedFrames implements FrameReads {

    /** Frames a copied walk may read apart (the copy lacked them) before it gives up and copies again. */
    static final int MAX_READ_APART = 1 << 16;

    private final SnapshotReader reader;
    private final FrameShape shape;
    private final DataStackProof dataStackProof;
    private StackCopy copy;
    private int readApart;
    private InnermostReading innermost;
    /** Frames read so far in this walk. */
    private int read;
    /** How many innermost frames, one after another, only the first copy holds: popped by the second. */
    private int firstCopyOnly;

    CopiedFrames(SnapshotReader reader, FrameShape shape, DataStackProof dataStackProof) {
        this.reader = reader;
        this.shape = shape;
        this.dataStackProof = dataStackProof;
    }

    /**
     * What proves a walked frame on the thread's data stack. Two copies that read the same do not tell
     * a caller that returned (and a call its own caller made in that slot since, before both copies)
     * from the caller that made the call: where frame sizes are known, each frame must also start where
     * its caller's frame ends, and a cleared frame (returned) may lie only innermost. A slot taken by a
     * call of another size is caught so; of the same size, the stack shown differs only where the code
     * does. The sizes do not replace the second copy: asking only for them let frames stand under
     * callers that never made them in one stack of ten on a target that churns through four functions.
     */
    enum DataStackProof {
        /** Every frame reads the same in both copies. */
        SECOND_COPY,
        /** That, and data-stack frames lie where their callers' frames end, under no cleared frame. */
        FRAME_SIZES;

        static DataStackProof of(DebugOffsets offsets) {
            return offsets.layout().poppedFrames() == PoppedFrames.CODE_CLEARED && offsets.code().frameSize().isPresent()
                    ? FRAME_SIZES : SECOND_COPY;
        }
    }

    /** Starts a walk over {@code stack}. */
    CopiedFrames over(StackCopy stack) {
        copy = stack;
        readApart = 0;
        innermost = InnermostReading.BOTH_COPIES;
        read = 0;
        firstCopyOnly = 0;
        return this;
    }

    @Override
    public boolean read(long address, long first, byte[] dst) throws MemoryAccessException {
        int before = read++;
        if (!copy.frame(address, dst)) {
            readApart++;
            reader.readApart(address, dst, 0, dst.length);
            return false;
        }
        if (address == first) {
            innermost = innermost(address, dst);
            firstCopyOnly = innermost.firstChecked();
        } else if (firstCopyOnly == before && poppedBySecondCopy(address, dst)) {
            firstCopyOnly++;
        } else if (shape.suspendedGenerator(dst, 0)) {
            // A generator that the frame above it says ran at the thread state's moment, suspended when
            // first copied: taken from the second copy when that shows it resumed again.
            resumedInSecondCopy(address, dst);
        } else if (shape.freedObject(dst, 0)) {
            calledInSecondCopy(address, dst);
        }
        return true;
    }

    @Override
    public boolean tooManyApart() {
        return readApart > MAX_READ_APART;
    }

    /** Whether the copies prove the walked frames ({@link DataStackProof}). */
    boolean proves(WalkedFrames walked, CodeObjects codes) {
        return unchangedInSecondCopy(walked, firstCopyOnly, codes)
                && (dataStackProof == DataStackProof.SECOND_COPY || placedOnTheDataStack(walked, codes))
                && calledByCallersThatCalled(walked);
    }

    /**
     * Whether a frame under frames only the first copy holds was popped by the second copy too: the
     * innermost frames of a stack that unwinds while it is copied.
     * Their callers' slots were copied first (the chunk is copied from its start up), each while it held
     * its call, and each frame starts where its caller's ends (3.14+, where sizes are known and a popped
     * frame reads cleared): a frame called since in a caller's slot would have to be of the same size.
     * Asking both copies to agree on these frames failed a recursion caught unwinding, and the tick read
     * again landed shallower.
     */
    private boolean poppedBySecondCopy(long address, byte[] dst) {
        if (dataStackProof != DataStackProof.FRAME_SIZES || !copy.onDataStack(address) || !shape.running(dst, 0)) {
            return false;
        }
        int at = copy.secondCopyOf(address, dst.length);
        return at >= 0 && shape.returned(copy.bytes(), at);
    }

    /** Whether each caller of a frame only the first copy holds had made a call (its {@code return_offset}). */
    private boolean calledByCallersThatCalled(WalkedFrames walked) {
        for (int i = 1; i < firstCopyOnly && i + 1 < walked.frames(); i++) {
            if (walked.callsMade(i + 1) == FrameShape.CallsMade.NONE) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the walked frames on the data stack lie as pushed: cleared ones (returned since the thread
     * state's moment) only innermost, and each starting where its caller's frame ends when the caller
     * is a data-stack frame of known code.
     */
    boolean placedOnTheDataStack(WalkedFrames walked, CodeObjects codes) {
        boolean live = false;
        for (int i = 0; i < walked.frames(); i++) {
            if (!onDataStack(walked, i)) {
                continue;
            }
            boolean cleared = shape.untag(walked.executable(i)) == 0;
            if (cleared && live) {
                return false; // returned under frames that still run: the copy caught two moments
            }
            live |= !cleared;
            int caller = i + 1;
            if (caller < walked.frames() && onDataStack(walked, caller)
                    && !walked.startsWhereCallerEnds(i, codes.knownFrameSlots(shape.untag(walked.executable(caller))))) {
                return false;
            }
        }
        return true;
    }

    private boolean onDataStack(WalkedFrames walked, int i) {
        return walked.callerLink(i) == CallerLink.FIXED && copy.onDataStack(walked.address(i));
    }

    /**
     * Whether every walked frame that the copy held reads the same in the second copy: its link to its
     * caller (or, a generator's frame, no link: it yielded since) and its code. (A caller's instruction
     * may have moved on between the copies, to its next call: its line is the one it had during the
     * first.)
     */
    boolean unchangedInSecondCopy(WalkedFrames walked, InnermostReading reading) {
        return unchangedInSecondCopy(walked, reading.firstChecked(), CodeHolding.NONE);
    }

    /** As {@link #unchangedInSecondCopy(WalkedFrames, InnermostReading)}, a returned frame's code told by {@code codeHolding}. */
    boolean unchangedInSecondCopy(WalkedFrames walked, InnermostReading reading, CodeHolding codeHolding) {
        return unchangedInSecondCopy(walked, reading.firstChecked(), codeHolding);
    }

    private boolean unchangedInSecondCopy(WalkedFrames walked, int firstChecked, CodeHolding codeHolding) {
        byte[] bytes = copy.bytes();
        for (int i = firstChecked; i < walked.frames(); i++) {
            // A frame read apart is not among those copied.
            int at = copy.secondCopyOf(walked.address(i), shape.size());
            if (at >= 0 && calledAgainInItsSlot(walked, i, bytes, at, codeHolding)) {
                continue;
            }
            if (at >= 0 && (!walked.callerLink(i).holds(walked.previous(i), shape.previous(bytes, at))
                    || shape.rawExecutable(bytes, at) != walked.executable(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether frame {@code i} returned before the first copy (its code cleared) and its slot holds, by the
     * second, the same function called again from the same caller's slot: a recursion caught unwinding
     * is entered again at once, and asking the slot to read the same failed most such walks, the tick read
     * again landing shallower. Another function in the slot is left to the proof: its caller may be
     * another call than the one the returned frame had.
     */
    private boolean calledAgainInItsSlot(WalkedFrames walked, int i, byte[] bytes, int at, CodeHolding codeHolding) {
        if (shape.untag(walked.executable(i)) != 0 || shape.previous(bytes, at) != walked.previous(i)) {
            return false;
        }
        long again = shape.untag(shape.rawExecutable(bytes, at));
        return again != 0 && codeHolding.addressHolding(walked.instrPtr(i)) == again;
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
     * Copies the second copy of a caller into {@code dst} when the first read it as a freed frame object
     * and the second reads it running: frame objects are ranges of their own, copied one after another,
     * and a stack that grew while the first copy was taken has its outer frames copied before they were
     * called. False when the second does not read it running; {@code dst} then keeps the first.
     */
    boolean calledInSecondCopy(long address, byte[] dst) {
        byte[] bytes = copy.bytes();
        int at = copy.secondCopyOf(address, dst.length);
        if (at < 0 || shape.previous(bytes, at) == 0 || !shape.running(bytes, at)) {
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
        boolean firstLive = shape.running(dst, 0);
        boolean secondLive = shape.running(bytes, at);
        if (secondLive && !firstLive) {
            // Cleared in the first copy, a frame in the second: pushed between them, or returned and called again.
            System.arraycopy(bytes, at, dst, 0, dst.length);
            return InnermostReading.SECOND_COPY;
        }
        if (firstLive && shape.previous(dst, 0) == 0 && shape.onThreadStack(shape.owner(dst, 0))
                && shape.previous(bytes, at) != 0 && shape.rawExecutable(bytes, at) == shape.rawExecutable(dst, 0)) {
            // A call from C code, caught between being pushed and being linked to the entry frame under it
            // (the eval loop links it as it starts): the named frame had returned and C code called again,
            // mostly the same function (map(), a sort's key). Linked by the second copy, that reading goes on.
            System.arraycopy(bytes, at, dst, 0, dst.length);
            return InnermostReading.SECOND_COPY;
        }
        // Popped (its code cleared, its frame object freed) before the second copy; any other change is the
        // proof's to judge.
        return firstLive && shape.returned(bytes, at) ? InnermostReading.FIRST_COPY_ONLY : InnermostReading.BOTH_COPIES;
    }

    /** Which copies hold the innermost frame as the walk read it. */
    enum InnermostReading {
        /** Both copies hold the walked frame (or it came from neither): each is checked against its second. */
        BOTH_COPIES,
        /** Popped (its code cleared) by the second copy: the first holds it, the second cannot prove it. */
        FIRST_COPY_ONLY,
        /** Not yet running in the first copy, running in the second: the walk went on from the second. */
        SECOND_COPY;

        /** The first frame whose second copy must match. */
        int firstChecked() {
            return this == FIRST_COPY_ONLY ? 1 : 0;
        }
    }

}
