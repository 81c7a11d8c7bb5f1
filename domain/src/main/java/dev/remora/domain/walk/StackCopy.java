package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.memory.StateOrder;
import dev.remora.domain.offsets.DebugOffsets;


/**
 * One thread's frames copied in a single remote read: the stack twice, and the thread state before
 * both copies or between them ({@link StateOrder}). The kernel copies the ranges of one call in
 * order. Walked from the current frame that thread state names, over the first copy, the stack is the
 * one the thread had at that moment when every walked frame reads the same in both copies: the
 * callers of a running frame do not change, and a frame popped and replaced differs. The proof of a
 * frame-by-frame walk and its read-back, in one round trip.
 *
 * <p>The stack is the data stack's current chunk, from its start to a little past its top, and the
 * ranges the last walk of this thread needed outside that chunk (generator and coroutine frames,
 * entry frames on the C stack, frames in older chunks), merged when near. The chunk is copied last
 * and read back first, so that the innermost frames, which change fastest, have their two copies
 * nearest each other. A walk that needs a frame the copy lacks reads it apart and remembers it for
 * the next read. 3.8 to 3.10 have no data stack: their frames are heap objects, and the copy holds
 * those the thread's recent walks needed, the last walk's innermost nearest the thread state.
 */
final class StackCopy implements SnapshotReader.Rider {

    /** Room above the predicted top for frames pushed since the thread state was last seen. */
    private static final int SLACK = 512;
    /** Walks over which a frame object (3.10) stays in the copy after the last walk that needed it. */
    static final int RECENT_WALKS = 32;
    /** No real chunk is larger; a bigger distance means the thread state was garbage. */
    private static final long MAX_CHUNK_BYTES = 1 << 22;

    private final DebugOffsets.Thread thread;
    private final int stateLength;

    /** The ranges read, in order: extras and chunk (the thread state before or after them), then again mirrored. */
    private final CopyRanges ranges;
    /** The copy's bytes: this copy's own buffer, or the snapshot's batch it rode along with. */
    private byte[] bytes;
    private byte[] ownBytes = new byte[4096];
    private final byte[] lastState;
    private boolean hasState;
    private boolean fromBatch;
    /** The snapshot whose batch the copy last rode along with: its bytes are of no use to a later one. */
    private long arrivedIn = -1;

    /** Extras for the next read (merged when near), and those being gathered by the current walk. */
    private final NearRanges extras = new NearRanges();
    private final NearRanges nextExtras = new NearRanges();
    /** Walks finished, to age the extras of heap frames by. */
    private int walks;
    private static final long LOWEST_MAPPED = 0x10000;
    /** The chunk the last read found, and whether the copy needs to be wider. */
    private long chunk;
    private long chunkEnd;
    /**
     * The highest top of the chunk the thread's recent states showed, sinking back toward the latest:
     * a thread that calls down and back every few microseconds is copied as deep as it goes, though the
     * state a read is planned from may have caught it near the bottom.
     */
    private long highTop;
    private boolean missed;
    private boolean currentProven;
    private final RecentCFrames recentCFrames = new RecentCFrames();
    private long lostCFrame;
    private long currentAsSecondCopied;
    private boolean lastFromBatch;

    StackCopy(DebugOffsets.Thread thread, StateOrder order) {
        this.thread = thread;
        this.ranges = new CopyRanges(order);
        this.stateLength = thread.readLength();
        this.lastState = new byte[stateLength];
    }

    /**
     * Plans the next read from the thread state its last read saw, the newest known; without one (none
     * yet, or the last read failed), from {@code known}.
     */
    void plan(long tstate, byte[] known) {
        planFrom(tstate, hasState ? lastState : known);
    }

    /** Plans the next read from a thread state read elsewhere. */
    void planFrom(long tstate, byte[] state) {
        ranges.clear();
        // 3.8 to 3.10 have no data stack: their frames are heap objects, all of them extras, and the last
        // walk's innermost is copied nearest the thread state, where the copies are nearest in time (extras
        // that are not aged keep the order they were learned in).
        boolean dataStack = thread.datastackChunk().isPresent();
        int[] order = extras.byRecency();
        for (int i = 0; i < extras.count; i++) {
            ranges.addStack(extras.start[order[i]], extras.length[order[i]]);
        }
        chunk = 0;
        chunkEnd = 0;
        long chunkStart = dataStack ? Bytes.getLong(state, (int) thread.datastackChunk().getAsLong()) : 0;
        long top = dataStack ? Bytes.getLong(state, (int) thread.datastackTop()) : 0;
        long limit = dataStack ? Bytes.getLong(state, (int) thread.datastackLimit()) : 0;
        if (chunkStart != 0 && top > chunkStart && limit >= top && limit - chunkStart <= MAX_CHUNK_BYTES) {
            highTop = highTop < chunkStart || highTop > limit || highTop <= top ? top : highTop - ((highTop - top) >> 4);
            chunk = chunkStart;
            chunkEnd = Math.min(limit, highTop + SLACK);
            ranges.addStack(chunk, (int) (chunkEnd - chunk));
        }
        ranges.endWithState(tstate, stateLength);
        fromBatch = false;
    }

    /** Whether the last copy came with a snapshot's batch, not from a read of its own. */
    boolean lastFromBatch() {
        return lastFromBatch;
    }

    /** Whether the planned copy rode along with the current snapshot's batch and arrived whole. */
    boolean rodeAlong(SnapshotReader reader) {
        return fromBatch && arrivedIn == reader.snapshots();
    }

    @Override
    public int ranges() {
        return ranges.count();
    }

    @Override
    public int middle() {
        return ranges.stateIndex();
    }

    @Override
    public long start(int range) {
        return ranges.start(range);
    }

    @Override
    public int length(int range) {
        return ranges.length(range);
    }

    @Override
    public void arrived(byte[] batch, int[] offsets, int first, boolean whole, long snapshot) {
        fromBatch = whole;
        arrivedIn = snapshot;
        if (whole) {
            bytes = batch;
            for (int r = 0; r < ranges.count(); r++) {
                ranges.setOffset(r, offsets[first + r]);
            }
            // Kept apart from the batch, whose bytes a refresh may read again in place (a thread state the
            // snapshot's own ranges hold among them, where thread states come between the copies).
            keepState();
        }
    }

    /**
     * Makes the planned copy ready to walk: taken from the snapshot's batch when the plan rode along
     * with it (once: a walk read again needs a fresh copy), or read now.
     *
     * @return whether every range arrived; when not, the copy cannot prove a walk
     */
    boolean read(SnapshotReader reader) {
        missed = false;
        nextExtras.clear();
        if (rodeAlong(reader)) {
            fromBatch = false;
            lastFromBatch = true;
            return true;
        }
        lastFromBatch = false;
        int total = ranges.list().packOffsets();
        if (ownBytes.length < total) {
            ownBytes = new byte[Math.max(total, ownBytes.length * 2)];
        }
        bytes = ownBytes;
        int arrived = reader.readTogether(ranges.list(), bytes);
        if (arrived == ranges.count()) {
            keepState();
            return true;
        }
        // A range the last walk needed is gone (a generator freed, a merged range over a hole): the
        // next read plans without it, and the walk learns again what it still needs. Only that range
        // goes: dropping all would leave the next copy without the records the walk needs first, to
        // learn them back with the gone one among them, over and over while the target stands.
        if (!extras.removeOverlapping(ranges.start(arrived), ranges.length(arrived))) {
            extras.clear();
        }
        hasState = false;
        return false;
    }

    /** The thread state read after the stack plans the next read: it is the newest. */
    private void keepState() {
        System.arraycopy(bytes, ranges.stateOffset(), lastState, 0, stateLength);
        hasState = true;
    }

    /** Whether a failed read may succeed when tried again: it held ranges that are now dropped. */
    boolean plannedExtras() {
        return ranges.stackRanges() > (chunk == 0 ? 0 : 1);
    }

    /**
     * The current frame the thread state named, read before or between the copies. In 3.11 and 3.12
     * the thread state names the innermost eval loop's {@code _PyCFrame} (on the thread's C stack, or
     * its own {@code root_cframe}), which holds the current frame: that record counts only when both
     * copies link it to the same caller record, and gives its first copy's current frame (its second's:
     * {@link #currentAsSecondCopied}). When the copy lacks it or its link moved, {@link #currentProven}
     * is false and the next read holds it; when it reads as zeros (memory a core left out),
     * {@link #lostCFrame} names it.
     */
    long current() {
        currentProven = true;
        lostCFrame = 0;
        if (thread.cframe().isEmpty()) {
            currentAsSecondCopied = Bytes.getLong(lastState, (int) thread.currentFrame());
            return currentAsSecondCopied;
        }
        DebugOffsets.CFrame c = thread.cframe().get();
        long cframe = Bytes.getLong(lastState, (int) c.pointer());
        long tstate = ranges.stateAddress();
        if (cframe - tstate >= 0 && cframe - tstate <= stateLength - c.size()) {
            currentAsSecondCopied = Bytes.getLong(lastState, (int) (cframe - tstate + thread.currentFrame()));
            return currentAsSecondCopied;
        }
        int size = (int) c.size();
        recentCFrames.remember(cframe);
        for (int r = ranges.stackRanges() - 1; r >= 0; r--) {
            long delta = cframe - ranges.stackStart(r);
            if (delta >= 0 && delta <= ranges.stackLength(r) - size) {
                int first = ranges.firstOffset(r) + (int) delta;
                int second = ranges.secondOffset(r) + (int) delta;
                long current = Bytes.getLong(bytes, first + (int) thread.currentFrame());
                currentAsSecondCopied = Bytes.getLong(bytes, second + (int) thread.currentFrame());
                // The same eval loop's record in both copies: the same link to its caller's record. Not the
                // same current frame: calls within that loop change it every microsecond, and a proof that
                // wanted it unchanged would pass mostly between calls. Which of its two readings held at
                // the thread state's moment, the data stack's top then tells (see CopiedLeftovers).
                currentProven = Bytes.getLong(bytes, first + (int) c.previous()) == Bytes.getLong(bytes, second + (int) c.previous());
                if (current == 0 && Bytes.getLong(bytes, first + (int) c.previous()) == 0) {
                    lostCFrame = cframe; // only the thread state's own root record has no previous one
                }
                return current;
            }
        }
        missed = true;
        currentProven = false;
        return 0;
    }

    /**
     * Whether the current frame, {@code slots} pointers long, lies whole below the data stack's top as
     * the thread state had it, when it is on the current chunk (3.11, 3.12: their record naming the
     * current frame is copied apart from the thread state). Frames are pushed at the top; one that
     * reaches above it is a popped frame's leftover, named by a record that changed and changed back
     * while the stack was copied. A frame off the chunk (a generator's) is not on the data stack.
     */
    boolean fitsBelowTop(long current, long slots) {
        return !onDataStack(current) || current + 8 * slots <= top();
    }

    /**
     * The current frame as the second copy of the record that names it has it (3.11, 3.12), after a
     * {@link #current}: the same as that, where the thread state itself names it.
     */
    long currentAsSecondCopied() {
        return currentAsSecondCopied;
    }

    /**
     * Whether a frame of {@code slots} pointers at {@code current} lies on the data stack's current
     * chunk as the thread state had it and ends below its top: then a frame the walk never met lay
     * above it, at the thread state's moment, and the record named an older current frame.
     */
    boolean endsBelowTop(long current, long slots) {
        return onDataStack(current) && current + 8 * slots < top();
    }

    /** The data stack's top, as the thread state had it. */
    private long top() {
        return Bytes.getLong(lastState, (int) thread.datastackTop());
    }

    /** Whether {@code address} lies on the data stack's current chunk, as the thread state had it. */
    boolean onDataStack(long address) {
        long chunkStart = Bytes.getLong(lastState, (int) thread.datastackChunk().getAsLong());
        long limit = Bytes.getLong(lastState, (int) thread.datastackLimit());
        return address >= chunkStart && address < limit;
    }

    /** The address of the {@code _PyCFrame} the last {@link #current} found all zeros, or 0. */
    long lostCFrame() {
        return lostCFrame;
    }

    /** Whether the last {@link #current} read the current frame from the copy and found it unchanged. */
    boolean currentProven() {
        return currentProven;
    }

    /** Where the second copy holds {@code n} bytes at {@code address} in {@link #bytes()}, or -1. */
    int secondCopyOf(long address, int n) {
        return ranges.secondCopyOf(address, n);
    }

    /** The copy's bytes, where {@link #secondCopyOf} points; valid until the next read. */
    byte[] bytes() {
        return bytes;
    }

    /** The thread state as read with the copies of the stack, from offset 0. */
    byte[] stateBytes() {
        return lastState;
    }

    /**
     * Copies a frame from the copy into {@code dst}; false when the copy does not hold it (the walk
     * must then read it apart, and the next read will hold it).
     */
    boolean frame(long address, byte[] dst) {
        int n = dst.length;
        boolean inChunk = address >= chunk && address - chunk <= chunkEnd - chunk - n;
        // Nothing is mapped in the lowest 64 KiB (the kernel's mmap_min_addr): a link there was read
        // in the middle of an update, and is no frame for the next copy to hold.
        if (!inChunk && (address < LOWEST_MAPPED || !nextExtras.add(address, n))) {
            missed = true;
            return false;
        }
        int at = ranges.firstCopyOf(address, n);
        if (at < 0) {
            missed = true;
            return false;
        }
        System.arraycopy(bytes, at, dst, 0, n);
        return true;
    }

    /** Whether the walk met a frame the copy lacked. */
    boolean missed() {
        return missed;
    }

    /**
     * Ends a walk: the frames it needed outside the chunk, and the records lately seen, plan the next
     * read. A walk that had to read frames apart keeps the ranges the copy held as well: its thread may
     * be switching between calls whose frames sit in different places (3.10's heap frames), and a copy
     * that holds only the last ones seen would miss the others every other time.
     */
    void finishWalk() {
        if (thread.cframe().isPresent()) {
            recentCFrames.planInto(nextExtras, (int) thread.cframe().get().size());
        }
        walks++;
        if (thread.datastackChunk().isEmpty()) {
            // Heap frames (3.10) come from a free list that hands a recursion's calls other objects each
            // time it is made: a copy that holds those of recent walks, not the last one's only, proves
            // deep stacks, where reading the missing ones apart came too late for them.
            extras.keepRecent(nextExtras, walks, RECENT_WALKS);
        } else if (missed) {
            extras.addAll(nextExtras);
        } else {
            extras.copyFrom(nextExtras);
        }
    }
}
