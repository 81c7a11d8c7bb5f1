package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.util.Optional;

/**
 * The frame-chain step of a sample: walks one thread's frames from its current frame outwards,
 * reading each header through its {@link FrameShape}, then proves that they stood together: by the
 * stack copy's second copy ({@link CopiedFrames}), by reading the links back ({@link ChainCheck}), or
 * with the frame marker ({@link MarkerProof}). Entry and C-stack frames carry no Python code: they are
 * skipped (or shown as {@code <native>}) and the walk goes on through them.
 */
final class FrameWalker {

    private static final Optional<StackProblem> CHANGED =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the stack changed while it was read"));
    private static final Optional<StackProblem> TOO_MANY_APART =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the stack copy lacked too many frames"));
    private static final Optional<StackProblem> SLOW =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the stack was read too slowly to be proven"));

    /** Deeper than any real stack (Python frames do not use the C stack since 3.11). */
    static final int MAX_DEPTH = 1 << 18;
    /**
     * Remote reads one walk may make (code objects met for the first time) and still be proven by a
     * single check: each read widens the time between reading a link and reading it back, and over
     * milliseconds a busy target can change a frame and change it back unseen.
     */
    static final int MAX_READS_PER_CHECK = 2;

    private final SnapshotReader reader;
    private final FrameShape shape;
    private final byte[] frame;
    private final byte[] codeUnit = new byte[2];
    private final ChainGuard guard = new ChainGuard(MAX_DEPTH, 0);
    private final ChainCheck check;
    private final MarkerProof markerProof;
    private final ReaderFrames throughReader;
    private final CopiedFrames copied;
    private final CopiedLeftovers leftovers;
    private final WalkedStack stack;
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
        this.frame = new byte[shape.size()];
        this.check = new ChainCheck(offsets, shape);
        this.markerProof = new MarkerProof(reader, check, offsets.thread());
        this.throughReader = new ReaderFrames(reader);
        this.copied = new CopiedFrames(reader, shape);
        this.leftovers = CopiedLeftovers.of(offsets, shape);
        this.stack = new WalkedStack(shape);
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
    WalkedStack walk(StackAt at, CodeObjects codes, FrameCache cache, SnapshotOptions options, long gcFrame)
            throws MemoryAccessException {
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
        WalkedStack read = readChain(at.first(), at.base(), reuseMarker, chain, throughReader, codes, cache, options, gcFrame);
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
        return read;
    }

    /** A walk that read no frame: {@code problem} says why. */
    WalkedStack unwalked(Optional<StackProblem> problem) {
        stack.clear();
        return stack.ended(problem);
    }

    /**
     * Like {@link #walk}, over a copy of the stack read in one go (see {@link StackCopy}): proven when
     * every walked frame reads the same in its second copy. Frames the copy lacked are read apart, and
     * the next copy holds them.
     */
    WalkedStack walkCopied(long tstate, StackCopy copy, CodeObjects codes, FrameCache cache, SnapshotOptions options,
                           long gcFrame) throws MemoryAccessException {
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
                stack.clear();
                return stack.ended(!copy.currentProven() || reader.memory().changes() ? CHANGED
                        : Optional.of(StackProblem.of(StackProblem.Kind.UNREADABLE,
                        "the eval loop's C frame at 0x%x reads as zeros: memory missing (left out of a core?)"
                                .formatted(copy.lostCFrame()))));
            }
            WalkedStack read = readChain(first, base, 0, cache.chain(), copied.over(copy), codes, cache, options, gcFrame);
            if (read.problem().isPresent()) {
                return read;
            }
            // Frames the copy lacked were read just after it (heap frames of generators and coroutines,
            // often new objects each time): the chain must still end where a thread's stack ends, not at
            // a generator frame that was suspended meanwhile and so lost its link to its caller.
            if (!read.endedAtRoot() || !copied.proves(read.frames())) {
                return read.ended(CHANGED);
            }
            return leftovers.dropFrom(read, copy, codes) ? read : read.ended(CHANGED);
        } finally {
            copy.finishWalk();
        }
    }

    /**
     * Reads the chain from {@code first} into the walked stack, through {@code reads}; stops at the
     * base frame, at the thread's first frame, or at {@code marker} when {@code chain} proves the
     * frames below it unchanged. The stack it returns is not proven yet.
     */
    private WalkedStack readChain(long first, long base, long marker, MarkedChain chain, FrameReads reads, CodeObjects codes,
                               FrameCache cache, SnapshotOptions options, long gcFrame) throws MemoryAccessException {
        ChainGuard guard = this.guard.restart(MAX_DEPTH, first);
        WalkedFrames walked = stack.frames();
        long address = first;
        int emitted = 0;
        int tailAt = -1;
        int opcodeReads = 0;
        boolean firstOnThreadStack = false;
        boolean endedAtRoot = first == 0;
        stack.clear();
        try {
            while (address != 0) {
                if (reads.tooManyApart()) {
                    return stack.ended(TOO_MANY_APART);
                }
                boolean fromCopy = reads.read(address, first, frame);
                // A caller read apart from the copy that can be in no chain was suspended or finished meanwhile
                // (the innermost frame may be starting, returning or yielding: the thread state names it all the same).
                if (address != first && !fromCopy && !shape.mayBeCaller(frame, 0)) {
                    return stack.ended(reader.memory().changes() ? CHANGED
                            : malformed("frame at 0x%x is in no chain of calls".formatted(address)));
                }
                long rawExecutable = shape.rawExecutable(frame, 0);
                long previous = shape.previous(frame, 0);
                long instrPtr = shape.instrPtr(frame, 0);
                int owner = shape.owner(frame, 0);
                walked.add(address, previous, rawExecutable, instrPtr, shape.callerLink(owner));
                if (!shape.validOwner(owner)) {
                    return stack.ended(malformed("frame at 0x%x has an invalid owner %d".formatted(address, owner)));
                }
                if (rawExecutable == 0 && previous == 0 && instrPtr == 0 && owner == 0) {
                    // No frame the interpreter links to is all zeros. In a core, memory it left out (a thread's C
                    // stack that gcore did not save) reads so; live, a frame not yet written or already freed.
                    return stack.ended(reader.memory().changes() ? CHANGED : Optional.of(StackProblem.of(
                            StackProblem.Kind.UNREADABLE, "frame at 0x%x reads as zeros after %d frames: memory missing (left out of a core?)"
                                    .formatted(address, emitted))));
                }
                boolean onThreadStack = shape.onThreadStack(owner);
                firstOnThreadStack |= address == first && onThreadStack;
                long executable = shape.untag(rawExecutable);
                if (shape.entry(owner)) {
                    // C code called back into Python here; mark it only between two Python frames.
                    if (options.nativeFrames() && emitted > 0 && previous != 0 && previous != gcFrame) {
                        walked.shown(PseudoFrames.NATIVE);
                        emitted++;
                    }
                } else if (executable != 0) {
                    if (options.gcFrames() && address == gcFrame) {
                        walked.shown(PseudoFrames.GC);
                    }
                    if (options.opcodes() && emitted == 0) {
                        long before = reader.remoteReads();
                        readOpcode(executable, instrPtr);
                        opcodeReads += (int) (reader.remoteReads() - before);
                    }
                    walked.shown(resolve(codes, cache, address, executable, instrPtr));
                    emitted++;
                    if (options.nativeFrames() && shape.calledFromC(frame, 0) && previous != 0 && previous != gcFrame) {
                        walked.shown(PseudoFrames.NATIVE);
                        emitted++;
                    }
                }
                // Only a data-stack frame keeps the marker truthful: one left on an entry frame stays
                // there after that frame goes, and the next entry frame at that address has other callers.
                if (marker != 0 && address == marker && onThreadStack) {
                    int at = chain.positionOf(address);
                    // The marked frame has not been popped: it still heads the chain's frames below it.
                    if (at >= 0 && previous == chain.addressOf(at - 1) && rawExecutable == chain.executableOf(at)) {
                        tailAt = at;
                        break;
                    }
                }
                if (previous != 0 && previous == base) {
                    // The sentinel under every stack: nothing to show, and nothing under it.
                    endedAtRoot = true;
                    break;
                }
                // A generator or coroutine suspended or finished between the reads has lost its caller (3.10
                // clears its f_back as it leaves) and is no thread's first frame: a thread's first frame still runs.
                endedAtRoot = previous == 0 && shape.bottom(owner) && shape.mayBeCaller(frame, 0);
                if (previous != 0 && !guard.step(previous)) {
                    return stack.ended(malformed(guard.tooLong()
                            ? "stack deeper than %d frames".formatted(MAX_DEPTH)
                            : "frame chain loops at 0x%x".formatted(previous)));
                }
                address = previous;
            }
            stack.reading(tailAt, firstOnThreadStack, endedAtRoot, opcodeReads);
            return stack.ended(Optional.empty());
        } catch (MalformedObjectException e) {
            return stack.ended(malformed(e.getMessage()));
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            // The target moved on under the walk, or the chain is garbage: report, don't fail the snapshot.
            return stack.ended(Optional.of(StackProblem.of(StackProblem.Kind.UNREADABLE,
                    "stack unreadable at 0x%x after %d frames: %s".formatted(address, emitted, e.getMessage()))));
        } finally {
            cache.finishWalk();
        }
    }

    /** Straight from the target: the address moves every sample and must not join the replayed ranges. */
    private void readOpcode(long executable, long instrPtr) throws MemoryAccessException {
        long unit = shape.codeUnit(reader, executable, instrPtr);
        if (unit != 0) {
            reader.readApart(unit, codeUnit, 0, 2);
            stack.opcode(shape.opcodeName(Bytes.getUnsignedShort(codeUnit, 0)));
        }
    }

    private static Optional<StackProblem> malformed(String detail) {
        return Optional.of(StackProblem.of(StackProblem.Kind.MALFORMED, detail));
    }

    private static FrameInfo resolve(CodeObjects codes, FrameCache cache, long address, long executable, long instrPtr)
            throws MemoryAccessException, MalformedObjectException {
        FrameInfo known = cache.lookup(address, executable, instrPtr, codes.epoch());
        if (known == null) {
            known = codes.get(executable).frameAt(instrPtr);
            // Read the epoch after get(): decoding may itself have dropped the cache.
            cache.remember(address, executable, instrPtr, codes.epoch(), known);
        }
        return known;
    }
}
