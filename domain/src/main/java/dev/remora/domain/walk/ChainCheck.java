package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.frames.CallerLink;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.RangeList;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;


/**
 * Proves that a walked stack existed. A walk reads frame after frame while the target runs on, so it
 * can stitch together frames from different moments into a stack that never was (a parent from one
 * call path under a child from another). After the walk, the links it used — each frame's
 * {@code previous} and executable, each parent's instruction, the thread's current frame — are read
 * again all at once; if any moved, the stack is rejected. What passes is the stack as it stood at
 * that second read. In a steady sampler the second read costs no round trip of its own: the
 * snapshot's batch reads the thread state (after the frames, or before them where a returned frame's
 * code reads cleared) and ends with their second copies.
 */
final class ChainCheck {

    /** Frames nearer than this are read back as one range. */
    private static final int MERGE_GAP = 512;
    private final DebugOffsets.Frame frame;
    private final FrameShape shape;
    private final int headerLength;

    /** The ranges read back: the current-frame field first, then the walked frames' headers, merged when near. */
    private final RangeList ranges = new RangeList(64);
    private byte[] bytes = new byte[4096];
    private long fromBatch;
    private long ownReads;

    ChainCheck(DebugOffsets offsets, FrameShape shape) {
        this.frame = offsets.frame();
        this.shape = shape;
        this.headerLength = (int) (Math.max(frame.executable(), Math.max(frame.previous(), frame.instrPtr())) + 8);
    }

    /**
     * @param currentFrameField where the thread state points at its current frame
     * @param first the current frame the walk started from
     * @param marker what the thread's frame marker must read, if anything
     * @return whether every link still holds
     */
    boolean holds(SnapshotReader reader, WalkedFrames walked, long currentFrameField, long first,
                  MarkerCheck marker, Readback when) {
        int frames = walked.frames();
        if (frames == 0) {
            return true;
        }
        boolean checkMarker = marker.checked();
        int head = checkMarker ? (int) (marker.field() - currentFrameField) + 8 : 8;
        ranges.clear();
        ranges.add(currentFrameField, head, 0);
        int offset = head;
        long start = 0, end = 0;
        long skip = checkMarker && marker.held() && marker.value() == first ? marker.value() : 0;
        for (int i = 0; i < frames; i++) {
            long a = walked.address(i), e = a + headerLength;
            if (a == skip) {
                continue;
            }
            if (end > start && a >= start - MERGE_GAP && e <= end + MERGE_GAP) {
                start = Math.min(start, a);
                end = Math.max(end, e);
                continue;
            }
            if (end > start) {
                ranges.add(start, (int) (end - start), offset);
                offset += (int) (end - start);
            }
            start = a;
            end = e;
        }
        if (end > start) {
            ranges.add(start, (int) (end - start), offset);
            offset += (int) (end - start);
        }
        byte[] copy = secondCopies(reader, when);
        if (copy != null) {
            fromBatch++;
        } else {
            ownReads++;
            if (bytes.length < offset) {
                bytes = new byte[Math.max(offset, bytes.length * 2)];
            }
            if (reader.readTogether(ranges, bytes) != ranges.count()) {
                return false;
            }
            copy = bytes;
        }
        if (Bytes.getLong(copy, ranges.offset(0)) != first
                || checkMarker && Bytes.getLong(copy, ranges.offset(0) + head - 8) != marker.value()) {
            return false;
        }
        for (int i = 0; i < frames; i++) {
            if (walked.address(i) == skip) {
                continue;
            }
            int at = locate(walked.address(i));
            CallerLink link = walked.callerLink(i);
            long previous = shape.previous(copy, at);
            if (!link.holds(walked.previous(i), previous)
                    || shape.rawExecutable(copy, at) != walked.executable(i)
                    // The innermost frame runs on while it is read; its callers wait at their calls (a
                    // generator that yielded since has moved on to its yield).
                    || i > 0 && !link.suspendedSince(walked.previous(i), previous)
                    && shape.instrPtr(copy, at) != walked.instrPtr(i)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The second copies the snapshot's batch already holds for these ranges (their offsets in the batch
     * then replace those of {@link #ranges}), or null when it does not hold them all; either way the
     * next batch will.
     */
    private byte[] secondCopies(SnapshotReader reader, Readback when) {
        // The thread state itself was read among the batch's thread states, before the second copies.
        int at = when == Readback.NOW ? -1 : reader.stateCopy(ranges.start(0), ranges.length(0));
        boolean all = at >= 0;
        ranges.setOffset(0, at);
        for (int r = 1; r < ranges.count(); r++) {
            reader.recordCheck(ranges.start(r), ranges.length(r));
            if (all) {
                at = reader.secondCopy(ranges.start(r), ranges.length(r));
                all = at >= 0;
                ranges.setOffset(r, at);
            }
        }
        if (!all) {
            ranges.packOffsets(); // back to where a read of their own puts them
            return null;
        }
        return reader.bytes();
    }

    /** Checks answered by the snapshot batch's second copies. */
    long fromBatch() {
        return fromBatch;
    }

    /** Checks that read on their own. */
    long ownReads() {
        return ownReads;
    }

    /** Where a frame's header sits in the checked bytes. */
    private int locate(long frameAddress) {
        for (int r = 1; r < ranges.count(); r++) {
            long delta = frameAddress - ranges.start(r);
            if (delta >= 0 && delta + headerLength <= ranges.length(r)) {
                return ranges.offset(r) + (int) delta;
            }
        }
        throw new IllegalStateException("frame 0x%x not among the ranges read back".formatted(frameAddress));
    }
}
