package dev.remora.domain.walk;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.VersionLayout;
import dev.remora.ports.MemoryAccessException;

import java.util.Optional;

/**
 * Walks one thread's chain of {@code _PyInterpreterFrame}s from its current frame outwards. Entry and
 * C-stack frames carry no Python code: they are skipped (or shown as {@code <native>}) and the walk
 * goes on through them.
 */
final class FrameWalker {

    private static final Optional<StackProblem> CHANGED =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the stack changed while it was read"));

    /** Deeper than any real stack (Python frames do not use the C stack since 3.11). */
    static final int MAX_DEPTH = 1 << 18;
    /**
     * Frames a walk reads above the marker before it moves the marker to the current frame: moving
     * it costs a write and a check of its own, which a deep stack repays at once. Otherwise the marker
     * moves to a current frame that stayed for two proven walks in a row (more after moves that did
     * not pay, see {@link MarkedChain#stayedOn}): the reads it then spares (second copies, frames
     * between it and the old marker, entry frames on the C stack) repay the move within a few samples.
     */
    static final int MARKER_MOVE_AFTER = 16;
    /**
     * Remote reads one walk may make (code objects met for the first time) and still be proven by a
     * single check: each read widens the time between reading a link and reading it back, and over
     * milliseconds a busy target can change a frame and change it back unseen.
     */
    static final int MAX_READS_PER_CHECK = 2;
    /** Frames a copied walk may read apart (the copy lacked them) before it gives up and copies again. */
    static final int MAX_READ_APART = 1 << 16;
    private static final Optional<StackProblem> TOO_MANY_APART =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the stack copy lacked too many frames"));
    private static final Optional<StackProblem> SLOW =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the stack was read too slowly to be proven"));

    private final SnapshotReader reader;
    private final DebugOffsets.Frame offsets;
    private final long currentFrameOffset;
    /** Where 3.11's frames keep {@code is_entry}, or -1: such a frame was called from C. */
    private final int isEntryOffset;
    /** 3.10's frames are heap frame objects: no owner, an executing state, an instruction index. */
    private final boolean frameObjects;
    /** 3.11, 3.12: the current frame is named by a record copied apart from the thread state. */
    private final boolean cframeNamesCurrent;
    private final int ownerOffset;
    /** The owner of generators' and coroutines' frames, whose link to the caller comes and goes. */
    private final int generatorOwner;
    private final int stateOffset;
    /** 3.10's frame states; unused on later versions. */
    private final DebugOffsets.FrameObject frameStates;
    private final long markerOffset;
    /** Where the current walk found its first frame named, for the read-back. */
    private long currentFrameField;
    private final long baseFrameOffset;
    /** The copy the current walk reads its frames from, or null when it reads them through the reader. */
    private StackCopy copy;
    private int readApart;
    private final VersionLayout layout;
    private final byte[] frame;
    private final byte[] markerBytes = new byte[8];
    private final ChainGuard guard = new ChainGuard(MAX_DEPTH, 0);
    private final ChainCheck check;
    private final WalkedFrames walked = new WalkedFrames();
    private final byte[] codeUnit = new byte[2];
    private final byte[] codeUnit8 = new byte[8];
    /** 3.10: where a code object points at its bytecode, and where a bytes object's data starts. */
    private final long bytecodeOffset;
    private final long bytesDataOffset;
    private final boolean[] entryOwner = new boolean[256];
    private final boolean[] bottomOwner = new boolean[256];
    private boolean markers;
    /** What the last walk found beyond its frames, for {@link #emit}. */
    private String opcode;
    private MarkedChain tailChain;
    private int tailAt;
    private long markerWalks;
    private long framesBelowMarker;
    private long markerWrites;
    private long copiesFromBatch;
    private long copyReads;

    FrameWalker(SnapshotReader reader, DebugOffsets offsets) {
        this.reader = reader;
        this.offsets = offsets.frame();
        this.currentFrameOffset = offsets.thread().currentFrame();
        this.isEntryOffset = (int) offsets.frame().isEntry().orElse(-1);
        this.frameObjects = offsets.frame().frameObject().isPresent();
        this.cframeNamesCurrent = offsets.thread().cframe().isPresent() && offsets.code().frameSize().isPresent();
        this.bytecodeOffset = offsets.code().bytecode().orElse(-1);
        this.bytesDataOffset = offsets.bytes().obSval();
        this.ownerOffset = (int) offsets.frame().owner().orElse(-1);
        this.generatorOwner = offsets.layout().owners().generator();
        this.stateOffset = offsets.frame().frameObject().map(o -> (int) o.state()).orElse(-1);
        this.frameStates = offsets.frame().frameObject().orElse(new DebugOffsets.FrameObject(-1, 0, 0));
        this.markerOffset = offsets.thread().lastProfiledFrame().orElse(-1);
        this.baseFrameOffset = offsets.thread().baseFrame().orElse(-1);
        this.layout = offsets.layout();
        this.frame = new byte[(int) this.offsets.size()];
        this.check = new ChainCheck(offsets);
        // Asked for every frame of every sample: a table instead of the layout's list.
        for (int owner = 0; owner < entryOwner.length; owner++) {
            entryOwner[owner] = layout.owners().isEntry(owner);
            bottomOwner[owner] = layout.owners().isBottom(owner);
        }
    }

    /** Whether walks keep frame markers: they then read frame by frame, to reuse what lies below the marker. */
    boolean usesMarkers() {
        return markers;
    }

    /** Whether the target exports a frame marker: {@link #useMarkers} works only then. */
    boolean markersSupported() {
        return markerOffset > currentFrameOffset;
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
        return markerWrites;
    }

    /** From now on, keep the thread's frame marker on walked stacks and reuse what lies below it. */
    void useMarkers() {
        markers = markersSupported();
    }

    /**
     * Reads the thread's frames, innermost first, and proves that they stood together; {@link #emit}
     * then hands them out. A walk that failed still leaves the frames it read for {@link #emit}.
     *
     * @param tstate the thread state's address
     * @param currentFrameField where the pointer to the current frame sits (in the thread state, or in
     *     3.11's and 3.12's {@code _PyCFrame})
     * @param first the current (innermost) frame
     * @param base the sentinel frame under all others (3.15+), or 0: a walk that reaches it is whole
     * @param marker the frame marker kept for profilers (3.15+), or 0
     * @param gcFrame the frame that started a running garbage collection, or 0
     * @return why the walk stopped early, if it did
     */
    Optional<StackProblem> walk(long tstate, long currentFrameField, long first, long base, long marker, CodeObjects codes,
                                FrameCache cache, SnapshotOptions options, long gcFrame) throws MemoryAccessException {
        copy = null;
        this.currentFrameField = currentFrameField;
        return walkChain(tstate, first, base, marker, codes, cache, options, gcFrame);
    }

    /**
     * Like {@link #walk}, over a copy of the stack read in one go (see {@link StackCopy}): proven when
     * every walked frame reads the same in its second copy. Frames the copy lacked are read apart, and
     * the next copy holds them.
     */
    Optional<StackProblem> walkCopied(long tstate, StackCopy copy, CodeObjects codes, FrameCache cache,
                                      SnapshotOptions options, long gcFrame) throws MemoryAccessException {
        this.copy = copy;
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
                walked.clear();
                opcode = null;
                tailChain = null;
                return !copy.currentProven() || reader.memory().changes() ? CHANGED
                        : Optional.of(StackProblem.of(StackProblem.Kind.UNREADABLE,
                                ("the eval loop's C frame at 0x%x reads as zeros: memory missing (left out of a core?)")
                                        .formatted(copy.lostCFrame())));
            }
            Optional<StackProblem> problem = walkChain(tstate, first, base, 0, codes, cache, options, gcFrame);
            if (problem.isEmpty() && cframeNamesCurrent) {
                int leftovers = framesAboveTop(copy, codes);
                if (leftovers == walked.frames() && leftovers > 0) {
                    walked.clear();
                    opcode = null;
                    return CHANGED;
                }
                if (leftovers > 0) {
                    // The record named a frame the thread had popped by the time of its thread state: the
                    // stack then is the rest, whose innermost frame ends at the top (under no <native> mark).
                    walked.dropInnermost(leftovers);
                    while (walked.frames() > 0 && walked.eventCount(0) > 0 && walked.event(0, 0) == PseudoFrames.NATIVE) {
                        walked.dropInnermost(1);
                    }
                    opcode = null;
                }
            }
            return problem;
        } finally {
            copy.finishWalk();
            this.copy = null;
        }
    }

    private Optional<StackProblem> walkChain(long tstate, long first, long base, long marker, CodeObjects codes,
                                             FrameCache cache, SnapshotOptions options, long gcFrame)
            throws MemoryAccessException {
        ChainGuard guard = this.guard.restart(MAX_DEPTH, first);
        // Below the marker the frames are those of the last proven stack; marks that depend on
        // what lies above a frame (<native>) or on this moment (<GC>) would need them read again.
        boolean plainFrames = !options.nativeFrames() && !(options.gcFrames() && gcFrame != 0);
        // A copied walk proves the stack its own way and does not keep the marker's chain.
        MarkedChain chain = markers && copy == null ? cache.chain() : null;
        if (chain != null && !plainFrames) {
            chain.drop();
            chain = null;
        }
        boolean reuse = chain != null && chain.anchored() && marker != 0;
        long address = first;
        int emitted = 0;
        int tailAt = -1;
        boolean firstOnThreadStack = false;
        // Whether the chain ended at the base frame or at the entry frame under a thread's first call.
        boolean endedAtRoot = first == 0;
        StackCopy.InnermostReading innermost = StackCopy.InnermostReading.BOTH_COPIES;
        long readsBefore = reader.remoteReads();
        walked.clear();
        opcode = null;
        tailChain = null;
        readApart = 0;
        try {
            while (address != 0) {
                if (readApart > MAX_READ_APART) {
                    return TOO_MANY_APART;
                }
                boolean fromCopy = readFrame(address);
                if (fromCopy && address == first) {
                    innermost = copy.innermost(address, frame, offsets, layout::untagStackRef);
                }
                if (fromCopy && address != first && suspendedGenerator()) {
                    // A generator suspended when first copied: resumed by the thread state's moment, as the
                    // frame above it says, when the second copy shows it linked again.
                    copy.resumedInSecondCopy(address, frame, offsets);
                }
                long rawExecutable = Bytes.getLong(frame, offsets.executable());
                long previous = Bytes.getLong(frame, offsets.previous());
                long instrPtr;
                int owner;
                if (frameObjects) {
                    // 3.10: every caller in a running chain executes (it waits in its call) or unwinds; one read apart
                    // from the copy that does neither was suspended or finished meanwhile. (One in the copy is proven by its
                    // second copy: the copy came before the thread state, and a frame object that returned then
                    // may be reused by the very call the thread state shows.) The innermost frame may be
                    // starting, returning or yielding: the thread state names it all the same.
                    if (address != first && !fromCopy && !frameStates.inChain(frame[stateOffset])) {
                        return reader.memory().changes() ? CHANGED
                                : malformed("frame at 0x%x is not executing (state %d)".formatted(address, frame[stateOffset]));
                    }
                    // Its instruction is an index: stand it in as the address later versions keep.
                    instrPtr = Bytes.getLong(frame, offsets.executable()) + 2L * Bytes.getInt(frame, (int) offsets.instrPtr());
                    owner = layout.owners().thread();
                } else {
                    instrPtr = Bytes.getLong(frame, offsets.instrPtr());
                    owner = frame[ownerOffset] & 0xFF;
                }
                // 3.10 tells no generator's frame object by its owner: any may be one.
                walked.add(address, previous, rawExecutable, instrPtr,
                        frameObjects || owner == generatorOwner ? CallerLink.RESUMABLE : CallerLink.FIXED);
                if (owner > layout.owners().max()) {
                    return malformed("frame at 0x%x has an invalid owner %d".formatted(address, owner));
                }
                if (rawExecutable == 0 && previous == 0 && instrPtr == 0 && owner == 0) {
                    // No frame the interpreter links to is all zeros. In a core, memory it left out (a thread's C
                    // stack that gcore did not save) reads so; live, a frame not yet written or already freed.
                    return reader.memory().changes() ? CHANGED : Optional.of(StackProblem.of(StackProblem.Kind.UNREADABLE,
                            "frame at 0x%x reads as zeros after %d frames: memory missing (left out of a core?)"
                                    .formatted(address, emitted)));
                }
                boolean onThreadStack = owner == layout.owners().thread();
                firstOnThreadStack |= address == first && onThreadStack;
                long executable = layout.untagStackRef(rawExecutable);
                if (entryOwner[owner]) {
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
                        // Straight from the target: the address moves every sample and must not join the replayed ranges.
                        long unit = frameObjects ? bytecodeUnit(executable, instrPtr) : instrPtr;
                        readsBefore += frameObjects ? 1 : 0; // 3.10 reads where its bytecode is first
                        if (unit != 0) {
                            reader.readApart(unit, codeUnit, 0, 2);
                            readsBefore++; // one small read every walk makes, not a cold code object's
                            opcode = layout.opcodeName(Bytes.getUnsignedShort(codeUnit, 0));
                        }
                    }
                    walked.shown(resolve(codes, cache, address, executable, instrPtr));
                    emitted++;
                    // 3.11 has no shim frames: a frame entered from C says so itself.
                    if (options.nativeFrames() && isEntryOffset >= 0 && frame[isEntryOffset] != 0
                            && previous != 0 && previous != gcFrame) {
                        walked.shown(PseudoFrames.NATIVE);
                        emitted++;
                    }
                }
                // Only a data-stack frame keeps the marker truthful: one left on an entry frame stays
                // there after that frame goes, and the next entry frame at that address has other callers.
                if (reuse && address == marker && onThreadStack) {
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
                // 3.10: a generator or coroutine suspended or finished between the reads has lost its caller (its
                // f_back is cleared as it leaves), and is no thread's first frame: a thread's first frame still runs.
                endedAtRoot = previous == 0 && bottomOwner[owner] && (!frameObjects || frameStates.inChain(frame[stateOffset]));
                if (previous != 0 && !guard.step(previous)) {
                    return malformed(guard.tooLong()
                            ? "stack deeper than %d frames".formatted(MAX_DEPTH)
                            : "frame chain loops at 0x%x".formatted(previous));
                }
                address = previous;
            }
            if (tailAt >= 0) {
                markerWalks++;
                framesBelowMarker += tailAt;
            }
            if (copy != null) {
                // Frames the copy lacked were read just after it (heap frames of generators and coroutines,
                // often new objects each time): the chain must still end where a thread's stack ends, not at
                // a generator frame that was suspended meanwhile and so lost its link to its caller.
                return endedAtRoot && copy.unchangedInSecondCopy(walked, offsets, innermost) ? Optional.empty() : CHANGED;
            }
            if (reader.remoteReads() - readsBefore > MAX_READS_PER_CHECK) {
                if (chain != null) {
                    chain.drop();
                }
                return SLOW;
            }
            if (!proven(first, tstate, marker, chain, tailAt, firstOnThreadStack)) {
                return CHANGED;
            }
            if (tailAt > 0) {
                tailChain = chain;
                this.tailAt = tailAt;
            }
            return Optional.empty();
        } catch (MalformedObjectException e) {
            return malformed(e.getMessage());
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            // The target moved on under the walk, or the chain is garbage: report, don't fail the snapshot.
            return Optional.of(StackProblem.of(StackProblem.Kind.UNREADABLE,
                    "stack unreadable at 0x%x after %d frames: %s".formatted(address, emitted, e.getMessage())));
        } finally {
            cache.finishWalk();
        }
    }

    /** Whether the frame just read has no caller because it is a generator's, suspended. */
    private boolean suspendedGenerator() {
        if (Bytes.getLong(frame, offsets.previous()) != 0) {
            return false;
        }
        return frameObjects ? !frameStates.inChain(frame[stateOffset]) : (frame[ownerOffset] & 0xFF) == generatorOwner;
    }

    /**
     * 3.10: where the instruction of a frame object lies, in its code's separate bytecode object; 0
     * before the first instruction. {@code instrPtr} stands for the index (see the walk).
     */
    private long bytecodeUnit(long code, long instrPtr) throws MemoryAccessException {
        long index = (instrPtr - code) / 2;
        if (index < 0 || bytecodeOffset < 0) {
            return 0;
        }
        reader.readApart(code + bytecodeOffset, codeUnit8, 0, 8);
        return Bytes.getLong(codeUnit8, 0) + bytesDataOffset + 2 * index;
    }

    /**
     * 3.11, 3.12: how many innermost walked frames reach above the data stack's top as the thread state
     * had it (see {@link StackCopy#fitsBelowTop}). The record naming the current frame is copied apart
     * from the thread state and can change and change back meanwhile (a recursion that unwinds and
     * comes back): those frames were popped at the moment the sample stands for.
     */
    private int framesAboveTop(StackCopy copy, CodeObjects codes) throws MemoryAccessException {
        int k = 0;
        while (k < walked.frames()) {
            long executable = layout.untagStackRef(walked.executable(k));
            try {
                if (executable == 0 || copy.fitsBelowTop(walked.address(k), codes.frameSlots(executable))) {
                    return k;
                }
            } catch (MalformedObjectException | MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
                return k; // not a code object met before: not a frame to judge
            }
            k++;
        }
        return k;
    }

    /** Reads a frame into {@link #frame}; whether it came from the stack copy. */
    private boolean readFrame(long address) throws MemoryAccessException {
        if (copy == null) {
            reader.read(address, frame, 0, frame.length);
            return false;
        }
        if (copy.frame(address, frame)) {
            return true;
        }
        readApart++;
        reader.readApart(address, frame, 0, frame.length);
        return false;
    }

    private static Optional<StackProblem> malformed(String detail) {
        return Optional.of(StackProblem.of(StackProblem.Kind.MALFORMED, detail));
    }

    /** Whether the last walk found no frame at all to show (it may have met frames that show nothing). */
    boolean walkedNothing() {
        if (tailChain != null) {
            return false;
        }
        for (int f = 0; f < walked.frames(); f++) {
            if (walked.eventCount(f) > 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Hands the last walk's frames to {@code visitor}, innermost first: its opcode, the frames it read,
     * then (after a proven walk that reused the frames below the marker) those frames.
     */
    void emit(StackVisitor visitor) {
        if (opcode != null) {
            visitor.opcode(opcode);
        }
        for (int f = 0; f < walked.frames(); f++) {
            for (int k = 0; k < walked.eventCount(f); k++) {
                FrameInfo event = walked.event(f, k);
                if (event == PseudoFrames.NATIVE || event == PseudoFrames.GC) {
                    visitor.frame(event);
                } else {
                    visitor.pythonFrame(event, walked.address(f), layout.untagStackRef(walked.executable(f)));
                }
            }
        }
        if (tailChain != null) {
            visitor.tail(tailChain.tailId(tailAt), tailChain.events(), tailChain.eventsBelow(tailAt));
        }
    }

    /**
     * Checks the walked links; with markers, also keeps the marker proven on the chain. A walk that
     * reused frames below the marker needs the marker unmoved, so that those frames were not popped
     * meanwhile. A long walk, or one whose current frame stayed since the last proven walk, anchors
     * the chain on its current frame: it proves the stack first, with a read of its own (the marker
     * is written only into a thread state just seen holding this stack), then moves the marker to
     * the current frame and reads again to see it there.
     */
    private boolean proven(long first, long tstate, long marker, MarkedChain chain, int tailAt, boolean firstOnThreadStack)
            throws MemoryAccessException {
        if (chain == null) {
            return check.holds(reader, walked, currentFrameField, first, MarkerCheck.NONE, Readback.BATCH_OR_NOW);
        }
        chain.markerSeen(marker);
        long executable = walked.executable(0);
        boolean stayed = firstOnThreadStack && chain.stayedOn(first, executable);
        long markerField = tstate + markerOffset;
        if (tailAt >= 0) {
            // The marker was proven on the chain before and has not moved since: its frame was not popped.
            boolean holds = check.holds(reader, walked, currentFrameField, first, MarkerCheck.held(markerField, marker),
                    Readback.BATCH_OR_NOW);
            if (holds && walked.frames() <= MARKER_MOVE_AFTER) {
                chain.rewriteFrom(tailAt, walked);
                // A current frame that stays above the marker takes it: later walks then read it alone. The
                // read before the write sees the marker still in place, so the frames below it still stand.
                if (stayed && walked.frames() > 1) {
                    boolean stillThere = check.holds(reader, walked, currentFrameField, first,
                            MarkerCheck.held(markerField, marker), Readback.NOW);
                    // Unwritten, the marker still stands where the chain has it; written, it may sit on a frame
                    // popped just before the write, unless it is seen there afterwards.
                    boolean moved = stillThere && markFirst(tstate, first);
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
        boolean deep = walked.frames() >= MARKER_MOVE_AFTER;
        if (!firstOnThreadStack || !deep && !stayed) {
            boolean holds = check.holds(reader, walked, currentFrameField, first, MarkerCheck.NONE, Readback.BATCH_OR_NOW);
            chain.provenOn(holds ? first : 0, executable);
            return holds;
        }
        boolean holds;
        if (first == marker) {
            holds = check.holds(reader, walked, currentFrameField, first, MarkerCheck.stands(markerField, first),
                    Readback.BATCH_OR_NOW);
            if (holds) {
                chain.rewriteFrom(0, walked);
            }
        } else {
            holds = freshlyProven(currentFrameField, first);
            if (holds) {
                boolean moved = markFirst(tstate, first);
                if (moved) {
                    chain.rewriteFrom(0, walked);
                }
                chain.moveEnded(moved, first);
            }
        }
        chain.provenOn(holds ? first : 0, executable);
        return holds;
    }

    /** The walked links read again now, apart from any batch: the thread state holds this stack at this moment. */
    private boolean freshlyProven(long currentFrameField, long first) throws MemoryAccessException {
        return check.holds(reader, walked, currentFrameField, first, MarkerCheck.NONE, Readback.NOW);
    }

    /** Moves the marker to the current frame of a stack just proven, and reads again to see it there. */
    private boolean markFirst(long tstate, long first) throws MemoryAccessException {
        return moveMarker(tstate, first)
                && check.holds(reader, walked, tstate + currentFrameOffset, first,
                MarkerCheck.stands(tstate + markerOffset, first), Readback.NOW);
    }

    private boolean moveMarker(long tstate, long frameAddress) {
        Bytes.putLong(markerBytes, 0, frameAddress);
        markerWrites++;
        try {
            reader.memory().write(tstate + markerOffset, markerBytes, 0, 8);
            return true;
        } catch (MemoryAccessException e) {
            return false;
        }
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
