package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.util.Optional;

/**
 * One walk of a thread's stack: its frames read by the {@link ChainReader}, over a stack copy or
 * through the reader, then the proof that they stood together: the copy's second copy
 * ({@link CopiedFrames}), the links read back ({@link ChainCheck}), or the frame marker
 * ({@link MarkerProof}).
 */
final class FrameWalker {

    private static final Optional<StackProblem> CHANGED = ChainReader.CHANGED;
    private static final Optional<StackProblem> SLOW =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the stack was read too slowly to be proven"));

    /**
     * Remote reads one walk may make (code objects met for the first time) and still be proven by a
     * single check: each read widens the time between reading a link and reading it back, and over
     * milliseconds a busy target can change a frame and change it back unseen.
     */
    static final int MAX_READS_PER_CHECK = 2;

    private final SnapshotReader reader;
    private final FrameShape shape;
    private final ChainReader chainReader;
    private final ChainCheck check;
    private final MarkerProof markerProof;
    private final ReaderFrames throughReader;
    private final CopiedFrames copied;
    private final CopiedLeftovers leftovers;
    private final ReturnedFrames returned;
    private final long markerOffset;
    private final long currentFrameOffset;
    private final long baseFrameOffset;
    private boolean markers;
    private long markerWalks;
    private long framesBelowMarker;
    private long copiesFromBatch;
    private long copyReads;

    FrameWalker(SnapshotReader reader, DebugOffsets offsets) {
        this.reader = reader;
        this.shape = FrameShape.of(offsets);
        this.chainReader = new ChainReader(reader, shape);
        this.check = new ChainCheck(offsets, shape);
        this.markerProof = new MarkerProof(reader, check, offsets.thread());
        this.throughReader = new ReaderFrames(reader);
        this.copied = new CopiedFrames(reader, shape, CopiedFrames.DataStackProof.of(offsets));
        this.leftovers = CopiedLeftovers.of(offsets, shape);
        this.returned = new ReturnedFrames(shape, offsets.layout().poppedFrames());
        this.markerOffset = offsets.thread().lastProfiledFrame().orElse(-1);
        this.currentFrameOffset = offsets.thread().currentFrame();
        this.baseFrameOffset = offsets.thread().baseFrame().orElse(-1);
    }

    /** Whether walks keep frame markers: they then read frame by frame, to reuse what lies below the marker. */
    boolean usesMarkers() {
        return markers;
    }

    /** Whether the target exports a frame marker: {@link #useMarkers} works only then. */
    boolean markersSupported() {
        return markerOffset > currentFrameOffset;
    }

    /** From now on, keep the thread's frame marker on walked stacks and reuse what lies below it. */
    void useMarkers() {
        markers = markersSupported();
    }

    /** Walks that met their proof in a snapshot's batch: its second copies, or a stack copy that rode along. */
    long checksFromBatch() {
        return check.fromBatch() + copiesFromBatch;
    }

    /** Walks that needed a read of their own for their proof (a new thread's first copy, every re-read). */
    long checkReads() {
        return check.ownReads() + copyReads;
    }

    long markerWalks() {
        return markerWalks;
    }

    long framesBelowMarker() {
        return framesBelowMarker;
    }

    long markerWrites() {
        return markerProof.writes();
    }

    /**
     * Reads the thread's frames through the reader, innermost first, and proves that they stood
     * together (with the marker, when walks keep it).
     *
     * @param gcFrame the frame that started a running garbage collection, or 0
     */
    WalkedStack walk(StackAt at, CodeObjects codes, FrameCache cache, SnapshotOptions options, long gcFrame,
                     TargetMotion motion) throws MemoryAccessException {
        // Below the marker the frames are those of the last proven stack; marks that depend on
        // what lies above a frame (<native>) or on this moment (<GC>) would need them read again.
        boolean plainFrames = !options.nativeFrames() && !(options.gcFrames() && gcFrame != 0);
        MarkedChain chain = cache.chain();
        boolean keepsMarker = markers && plainFrames;
        if (markers && !plainFrames) {
            chain.drop();
        }
        long reuseMarker = keepsMarker && chain.anchored() ? at.marker() : 0;
        long readsBefore = reader.remoteReads();
        WalkedStack read = chainReader.read(at.first(), at.base(), reuseMarker, chain, throughReader, codes, cache, options, gcFrame);
        if (read.problem().isPresent()) {
            return read;
        }
        int tailAt = read.tailAt();
        if (tailAt >= 0) {
            markerWalks++;
            framesBelowMarker += tailAt;
        }
        if (reader.remoteReads() - readsBefore - read.opcodeReads() > MAX_READS_PER_CHECK) {
            if (keepsMarker) {
                chain.drop();
            }
            return read.ended(SLOW);
        }
        boolean holds = keepsMarker
                ? markerProof.holds(read.frames(), at, chain, tailAt, read.firstOnThreadStack())
                : check.holds(reader, read.frames(), at.currentFrameField(), at.first(), MarkerCheck.NONE, Readback.BATCH_OR_NOW);
        if (!holds) {
            return read.ended(CHANGED);
        }
        if (tailAt > 0) {
            read.tail(chain, tailAt);
        }
        return returned.unnamed(read, motion);
    }

    /** A walk over a stack copy, and whether the thread had called further than it by the thread state's moment. */
    private record CopiedWalk(WalkedStack stack, boolean calledFurther) {}

    /** Walks the copy from {@code first} and proves the walk by the second copy and the data stack's top. */
    private CopiedWalk walkCopiedFrom(long first, long base, StackCopy copy, CodeObjects codes, FrameCache cache,
                                      SnapshotOptions options, long gcFrame) throws MemoryAccessException {
        WalkedStack read = chainReader.read(first, base, 0, cache.chain(), copied.over(copy), codes, cache, options, gcFrame);
        if (read.problem().isPresent()) {
            return new CopiedWalk(read, false);
        }
        // Frames the copy lacked were read just after it (heap frames of generators and coroutines,
        // often new objects each time): the chain must still end where a thread's stack ends, not at
        // a generator frame that was suspended meanwhile and so lost its link to its caller.
        if (!read.endedAtRoot() || !copied.proves(read.frames(), codes)) {
            return new CopiedWalk(read.ended(CHANGED), false);
        }
        CopiedLeftovers.Verdict verdict = leftovers.dropFrom(read, copy, codes);
        return switch (verdict) {
            case HOLDS -> new CopiedWalk(read, false);
            case ALL_POPPED -> new CopiedWalk(read.ended(CHANGED), false);
            case CALLED_FURTHER -> new CopiedWalk(read, true);
        };
    }

    /** A walk that read no frame: {@code problem} says why. */
    WalkedStack unwalked(Optional<StackProblem> problem) {
        return chainReader.nothing(problem);
    }

    /**
     * Like {@link #walk}, over a copy of the stack read in one go (see {@link StackCopy}): proven when
     * every walked frame reads the same in its second copy. Frames the copy lacked are read apart, and
     * the next copy holds them.
     */
    WalkedStack walkCopied(long tstate, StackCopy copy, CodeObjects codes, FrameCache cache, SnapshotOptions options,
                           long gcFrame, TargetMotion motion) throws MemoryAccessException {
        if (markers) {
            cache.chain().drop(); // proven without the marker: the next marked walk anchors it afresh
        }
        if (copy.lastFromBatch()) {
            copiesFromBatch++;
        } else {
            copyReads++;
        }
        long base = baseFrameOffset >= 0 ? Bytes.getLong(copy.stateBytes(), (int) baseFrameOffset) : 0;
        try {
            long first = copy.current();
            if (!copy.currentProven() || copy.lostCFrame() != 0) {
                return chainReader.nothing(!copy.currentProven() || reader.memory().changes() ? CHANGED
                        : Optional.of(StackProblem.of(StackProblem.Kind.UNREADABLE,
                        "the eval loop's C frame at 0x%x reads as zeros: memory missing (left out of a core?)"
                                .formatted(copy.lostCFrame()))));
            }
            CopiedWalk walk = walkCopiedFrom(first, base, copy, codes, cache, options, gcFrame);
            long second = copy.currentAsSecondCopied();
            if (!walk.calledFurther()) {
                return returned.named(walk.stack(), motion, codes);
            }
            if (second == first || second == 0) {
                // Both readings agree. Held still, the thread is caught making the call. Running, the record
                // may be one an eval loop left as it returned, and made again between the readings (a
                // generator resumed and suspended): taking it gave callees fewer ticks than --blocking does.
                return motion == TargetMotion.HELD_STILL ? walk.stack() : walk.stack().ended(CHANGED);
            }
            // The record's first reading is older than the thread state: its second may be of that moment.
            walk = walkCopiedFrom(second, base, copy, codes, cache, options, gcFrame);
            return walk.calledFurther() ? walk.stack().ended(CHANGED) : returned.named(walk.stack(), motion, codes);
        } finally {
            copy.finishWalk();
        }
    }
}
