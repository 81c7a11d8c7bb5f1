package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.ports.MemoryAccessException;

import java.util.Optional;

/**
 * The frame-chain step of a sample: reads one thread's frames from its current frame outwards, each
 * header through its {@link FrameShape}, into the {@link WalkedStack} it returns, not yet proven (see
 * {@link FrameWalker}). Entry and C-stack frames carry no Python code: they are skipped (or shown as
 * {@code <native>}) and the walk goes on through them. One per walker, reused walk after walk.
 */
final class ChainReader {

    static final Optional<StackProblem> CHANGED =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the stack changed while it was read"));
    private static final Optional<StackProblem> TOO_MANY_APART =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the stack copy lacked too many frames"));

    private final SnapshotReader reader;
    private final FrameShape shape;
    private final byte[] frame;
    private final byte[] codeUnit = new byte[2];
    private final ChainGuard guard = new ChainGuard(FrameShape.MAX_DEPTH, 0);
    private final WalkedStack stack;

    ChainReader(SnapshotReader reader, FrameShape shape) {
        this.reader = reader;
        this.shape = shape;
        this.frame = new byte[shape.size()];
        this.stack = new WalkedStack(shape);
    }

    /** A stack with no frame read: {@code problem} says why. */
    WalkedStack nothing(Optional<StackProblem> problem) {
        stack.clear();
        return stack.ended(problem);
    }

    /**
     * Reads the chain from {@code first} into the walked stack, through {@code reads}; stops at the
     * base frame, at the thread's first frame, or at {@code marker} when {@code chain} proves the
     * frames below it unchanged. The stack it returns is not proven yet.
     */
    WalkedStack read(long first, long base, long marker, MarkedChain chain, FrameReads reads, CodeObjects codes,
                     FrameCache cache, SnapshotOptions options, long gcFrame) throws MemoryAccessException {
        ChainGuard guard = this.guard.restart(FrameShape.MAX_DEPTH, first);
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
                // A caller that can be in no chain was suspended or finished meanwhile: read apart, or copied
                // twice the same while it sat freed (3.10 reuses frame objects last out, first in, so a freed
                // one can read the same in both copies, its link to its caller being the free list's). The
                // innermost frame may be starting, returning or yielding, or be its code's spare frame
                // object, reused by every call under the same caller: the thread state names it all the same.
                if (address != first && !shape.mayBeCaller(frame, 0)) {
                    return stack.ended(reader.memory().changes() ? CHANGED
                            : malformed("frame at 0x%x is in no chain of calls".formatted(address)));
                }
                long rawExecutable = shape.rawExecutable(frame, 0);
                long previous = shape.previous(frame, 0);
                long instrPtr = shape.instrPtr(frame, 0);
                int owner = shape.owner(frame, 0);
                walked.add(address, previous, rawExecutable, instrPtr, shape.callerLink(owner), shape.callsMade(frame, 0));
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
                            ? "stack deeper than %d frames".formatted(FrameShape.MAX_DEPTH)
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
