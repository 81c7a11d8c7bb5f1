package dev.remora.domain.walk;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;

import java.util.Arrays;

/**
 * Proves that a walked stack existed. A walk reads frame after frame while the target runs on, so it
 * can stitch together frames from different moments into a stack that never was (a parent from one
 * call path under a child from another). After the walk, the links it used — each frame's
 * {@code previous} and executable, each parent's instruction, the thread's current frame — are read
 * again all at once; if any moved, the stack is rejected. What passes is the stack as it stood at
 * that second read. In a steady sampler the second read costs no round trip of its own: the
 * snapshot's batch reads the thread state after the frames and ends with their second copies.
 */
final class ChainCheck {

    /** Frames nearer than this are read back as one range. */
    private static final int MERGE_GAP = 512;
    private final DebugOffsets.Frame frame;
    private final FrameShape shape;
    private final int headerLength;

    private long[] rangeStart = new long[64];
    private int[] rangeLength = new int[64];
    private int[] rangeOffset = new int[64];
    private int[] copyOffset = new int[64];
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
        int ranges = put(0, currentFrameField, head, 0);
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
                ranges = put(ranges, start, (int) (end - start), offset);
                offset += (int) (end - start);
            }
            start = a;
            end = e;
        }
        if (end > start) {
            ranges = put(ranges, start, (int) (end - start), offset);
            offset += (int) (end - start);
        }
        byte[] copy = secondCopies(reader, ranges, when);
        if (copy != null) {
            fromBatch++;
        } else {
            ownReads++;
            if (bytes.length < offset) {
                bytes = new byte[Math.max(offset, bytes.length * 2)];
            }
            if (reader.readTogether(rangeStart, rangeLength, bytes, rangeOffset, ranges) != ranges) {
                return false;
            }
            copy = bytes;
        }
        if (Bytes.getLong(copy, rangeOffset[0]) != first
                || checkMarker && Bytes.getLong(copy, rangeOffset[0] + head - 8) != marker.value()) {
            return false;
        }
        for (int i = 0; i < frames; i++) {
            if (walked.address(i) == skip) {
                continue;
            }
            int at = locate(walked.address(i), ranges);
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
     * The second copies the snapshot's batch already holds for these ranges (their offsets replace
     * {@link #rangeOffset}), or null when it does not hold them all; either way the next batch will.
     */
    private byte[] secondCopies(SnapshotReader reader, int ranges, Readback when) {
        // The thread state itself was read late in the batch: after the frames, before their second copies.
        int at = when == Readback.NOW ? -1 : reader.lateCopy(rangeStart[0], rangeLength[0]);
        boolean all = at >= 0;
        copyOffset[0] = at;
        for (int r = 1; r < ranges; r++) {
            reader.recordCheck(rangeStart[r], rangeLength[r]);
            if (all) {
                at = reader.secondCopy(rangeStart[r], rangeLength[r]);
                all = at >= 0;
                copyOffset[r] = at;
            }
        }
        if (!all) {
            return null;
        }
        System.arraycopy(copyOffset, 0, rangeOffset, 0, ranges);
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

    private int put(int ranges, long start, int length, int offset) {
        if (ranges == rangeStart.length) {
            rangeStart = Arrays.copyOf(rangeStart, ranges * 2);
            rangeLength = Arrays.copyOf(rangeLength, ranges * 2);
            rangeOffset = Arrays.copyOf(rangeOffset, ranges * 2);
            copyOffset = Arrays.copyOf(copyOffset, ranges * 2);
        }
        rangeStart[ranges] = start;
        rangeLength[ranges] = length;
        rangeOffset[ranges] = offset;
        return ranges + 1;
    }

    /** Where a frame's header sits in the checked bytes. */
    private int locate(long frameAddress, int ranges) {
        for (int r = 1; r < ranges; r++) {
            long delta = frameAddress - rangeStart[r];
            if (delta >= 0 && delta + headerLength <= rangeLength[r]) {
                return rangeOffset[r] + (int) delta;
            }
        }
        throw new IllegalStateException("frame 0x%x not among the ranges read back".formatted(frameAddress));
    }
}
