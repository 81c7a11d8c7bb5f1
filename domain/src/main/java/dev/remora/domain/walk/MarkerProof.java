package dev.remora.domain.walk;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

/**
 * The proof of a walk that keeps the thread's frame marker (CPython 3.15's {@code last_profiled_frame}):
 * the read-back of {@link ChainCheck}, plus the marker, which the interpreter moves to the caller
 * whenever it pops the marked frame. A walk that reused frames below the marker needs the marker
 * unmoved, so that those frames were not popped meanwhile. A long walk, or one whose current frame
 * stayed since the last proven walk, anchors the chain on its current frame: it proves the stack
 * first, with a read of its own (the marker is written only into a thread state just seen holding
 * this stack), then moves the marker to the current frame and reads again to see it there. The only
 * proof that writes into the target.
 */
final class MarkerProof {

    /**
     * Frames a walk reads above the marker before it moves the marker to the current frame: moving
     * it costs a write and a check of its own, which a deep stack repays at once. Otherwise the marker
     * moves to a current frame that stayed for two proven walks in a row (more after moves that did
     * not pay, see {@link MarkedChain#stayedOn}): the reads it then spares (second copies, frames
     * between it and the old marker, entry frames on the C stack) repay the move within a few samples.
     */
    static final int MOVE_AFTER = 16;

    private final SnapshotReader reader;
    private final ChainCheck check;
    private final long markerOffset;
    private final long currentFrameOffset;
    private final byte[] markerBytes = new byte[8];
    private long writes;

    MarkerProof(SnapshotReader reader, ChainCheck check, DebugOffsets.Thread thread) {
        this.reader = reader;
        this.check = check;
        this.markerOffset = thread.lastProfiledFrame().orElse(-1);
        this.currentFrameOffset = thread.currentFrame();
    }

    /** Writes of the marker into the target so far. */
    long writes() {
        return writes;
    }

    /**
     * Whether the walked stack stood together, keeping {@code chain} and the marker on it.
     *
     * @param at where the walk found its stack: the thread state, where its current frame is named, the
     *     current frame, and the marker it read
     * @param tailAt the position in {@code chain} where the walk met the marker and stopped, or -1
     * @param firstOnThreadStack whether the current frame is on the data stack, where a marker stays truthful
     */
    boolean holds(WalkedFrames walked, StackAt at, MarkedChain chain, int tailAt, boolean firstOnThreadStack)
            throws MemoryAccessException {
        long first = at.first();
        long marker = at.marker();
        chain.markerSeen(marker);
        long executable = walked.executable(0);
        boolean stayed = firstOnThreadStack && chain.stayedOn(first, executable);
        long markerField = at.tstate() + markerOffset;
        if (tailAt >= 0) {
            // The marker was proven on the chain before and has not moved since: its frame was not popped.
            boolean holds = check.holds(reader, walked, at.currentFrameField(), first, chain.held(markerField, marker),
                    Readback.BATCH_OR_NOW);
            if (holds && walked.frames() <= MOVE_AFTER) {
                chain.rewriteFrom(tailAt, walked);
                // A current frame that stays above the marker takes it: later walks then read it alone. The
                // read before the write sees the marker still in place, so the frames below it still stand.
                if (stayed && walked.frames() > 1) {
                    boolean stillThere = check.holds(reader, walked, at.currentFrameField(), first,
                            chain.held(markerField, marker), Readback.NOW);
                    // Unwritten, the marker still stands where the chain has it; written, it may sit on a frame
                    // popped just before the write, unless it is seen there afterwards.
                    boolean moved = stillThere && markFirst(walked, chain, at.tstate(), first);
                    chain.moveEnded(moved, first);
                    if (stillThere && !moved) {
                        chain.drop();
                    }
                }
            } else {
                // Far above the marker now (or changed): walk whole once more and move the marker up.
                chain.drop();
            }
            chain.provenOn(holds ? first : 0, executable);
            return holds;
        }
        chain.drop();
        boolean deep = walked.frames() >= MOVE_AFTER;
        if (!firstOnThreadStack || !deep && !stayed) {
            boolean holds = check.holds(reader, walked, at.currentFrameField(), first, MarkerCheck.NONE, Readback.BATCH_OR_NOW);
            chain.provenOn(holds ? first : 0, executable);
            return holds;
        }
        boolean holds;
        if (first == marker) {
            holds = check.holds(reader, walked, at.currentFrameField(), first, chain.stands(markerField, first),
                    Readback.BATCH_OR_NOW);
            if (holds) {
                chain.rewriteFrom(0, walked);
            }
        } else {
            // The walked links read again now, apart from any batch: the thread state holds this stack at this moment.
            holds = check.holds(reader, walked, at.currentFrameField(), first, MarkerCheck.NONE, Readback.NOW);
            if (holds) {
                boolean moved = markFirst(walked, chain, at.tstate(), first);
                if (moved) {
                    chain.rewriteFrom(0, walked);
                }
                chain.moveEnded(moved, first);
            }
        }
        chain.provenOn(holds ? first : 0, executable);
        return holds;
    }

    /** Moves the marker to the current frame of a stack just proven, and reads again to see it there. */
    private boolean markFirst(WalkedFrames walked, MarkedChain chain, long tstate, long first) throws MemoryAccessException {
        return write(tstate, first)
                && check.holds(reader, walked, tstate + currentFrameOffset, first,
                chain.stands(tstate + markerOffset, first), Readback.NOW);
    }

    private boolean write(long tstate, long frameAddress) {
        Bytes.putLong(markerBytes, 0, frameAddress);
        writes++;
        try {
            reader.memory().write(tstate + markerOffset, markerBytes, 0, 8);
            return true;
        } catch (MemoryAccessException e) {
            return false;
        }
    }
}
