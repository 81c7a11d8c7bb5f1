package dev.remora.domain.walk;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;
import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.threads.InterpreterWindow;
import dev.remora.domain.threads.Interpreters;
import dev.remora.ports.CpuState;
import dev.remora.ports.MemoryAccessException;

import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The thread step of a sample: one thread's status, then its stack, read again at once while the
 * stack moved under the read, so that the tick shows the stack of its own moment or says why not.
 * Without frame markers every reading is a {@link StackCopy} (riding along with the snapshot's batch
 * when it can); with them the first reading goes frame by frame, to reuse what lies below the marker.
 */
final class ThreadWalk {

    /**
     * Fresh reads of one thread's stack within a tick, after the first, before the tick counts as an
     * error: a stack that changes every few microseconds still gives a proven walk within a few.
     */
    static final int MAX_REREADS = 32;
    /** Looks again at an empty stack of a thread that showed frames: one was not always enough for 3.12. */
    static final int EMPTY_LOOKS = 3;
    /** Times a stopped target is let run on within one tick, for a thread it stopped in the middle of a call. */
    static final int MAX_RUNS_ON = 4;
    private static final Optional<StackProblem> UNREADABLE_COPY =
            Optional.of(StackProblem.of(StackProblem.Kind.UNREADABLE, "a range of the stack copy was unreadable"));

    private final SnapshotReader reader;
    private final DebugOffsets.Thread offsets;
    private final FrameCaches caches;
    private final CpuCheck cpuCheck;
    private final ThreadStatusReader statusReader;
    private final FrameWalker walker;
    private final long markerOffset;
    private final long baseFrameOffset;
    private final StackAt stackAt = new StackAt();
    private StoppedThreads stopped = StoppedThreads.RUNNING;

    ThreadWalk(SnapshotReader reader, DebugOffsets offsets, FrameCaches caches, CpuCheck cpuCheck, FrameWalker walker) {
        this.reader = reader;
        this.offsets = offsets.thread();
        this.caches = caches;
        this.cpuCheck = cpuCheck;
        this.statusReader = new ThreadStatusReader(offsets, reader);
        this.walker = walker;
        this.markerOffset = this.offsets.lastProfiledFrame().orElse(-1);
        this.baseFrameOffset = this.offsets.baseFrame().orElse(-1);
    }

    /** Where the target is stopped for each sample: how to let a thread caught in the middle of a call run on. */
    void stoppedBy(StoppedThreads threads) {
        this.stopped = threads;
    }

    /**
     * Walks thread {@code i} of {@code threads}, whose kernel id is {@code nativeId}, and hands what it
     * found to {@code visitor}.
     */
    void walk(InterpreterWindow interpreter, Interpreters.Threads threads, int i, long nativeId, CodeObjects codes,
              SnapshotOptions options, LongFunction<CpuState> runStates, StackVisitor visitor) throws MemoryAccessException {
        long address = threads.address(i);
        byte[] tstate = threads.state(i);
        // Claimed before the filter: a thread a mode skips this time keeps its cache for the next.
        FrameCache cache = caches.forThread(address);
        CpuCheck.Verdict cpu = options.cpuState() ? cpuCheck.start(nativeId, cache.cpuHistory(), runStates) : CpuCheck.Verdict.UNCLOCKED;
        CpuState cpuState = cpu != CpuCheck.Verdict.UNCLOCKED ? cpu.state()
                : options.cpuState() ? runStates.apply(nativeId) : CpuState.UNKNOWN;
        int status = statusReader.read(address, tstate, threads.gilHolder(), address == threads.main(), cpuState);
        if (!visitor.beginThread(interpreter.id(), nativeId, status)) {
            return;
        }
        long gcFrame = interpreter.gcFrame();
        StackCopy copy = cache.copy(offsets, reader.stateOrder());
        boolean hadFrames = cache.lastWalkShowedFrames();
        boolean marked = walker.usesMarkers();
        WalkedStack stack;
        if (marked) {
            stack = walkFrameByFrame(address, tstate, gcFrame, codes, cache, options);
        } else {
            if (!copy.rodeAlong(reader)) {
                copy.planFrom(address, tstate);
            }
            stack = walkCopy(address, tstate, copy, gcFrame, codes, cache, options);
        }
        int rereads = 0;
        int runsOn = 0;
        int emptyLooks = 0;
        boolean live = reader.memory().changes();
        // The tick stands for this moment: a stack that moved under the walk is copied again at once.
        // Every kind: on a running target, a malformed or unreadable stack is mostly one read as it moved.
        // A core does not change, but a copy that lacked part of the stack (3.11's and 3.12's _PyCFrame on
        // the C stack) holds it when read again. A live thread that showed frames last time and none now
        // gets a few more looks: 3.11 and 3.12 point the thread state at an eval loop's _PyCFrame before
        // they fill in its current frame, and an empty stack is no sample at all.
        while (rereads < MAX_REREADS && (live || copy.missed()) && (stack.problem().isPresent()
                || live && hadFrames && emptyLooks < EMPTY_LOOKS && stack.showsNothing())) {
            if (stack.problem().isEmpty()) {
                emptyLooks++;
            }
            // Stopped memory reads the same each time: a stack torn there needs the thread to run on first
            // (once a copy that lacked part of the stack has been read again with it).
            if (stack.problem().isPresent() && (rereads > 0 || !copy.missed()) && runsOn < MAX_RUNS_ON
                    && stopped.runOnAMoment(runsOn)) {
                runsOn++;
            }
            if (marked && rereads == 0) {
                copy.planFrom(address, tstate);
            } else {
                copy.plan(address, tstate);
            }
            rereads++;
            stack = walkCopy(address, tstate, copy, gcFrame, codes, cache, options);
        }
        Optional<StackProblem> problem = stack.problem();
        if (problem.isEmpty() && emptyLooks == EMPTY_LOOKS && stack.showsNothing()) {
            // Still no frame: the tick has no stack to show, and says so (a thread that ended its Python
            // code shows none from the next tick on, without looks).
            problem = Optional.of(StackProblem.of(StackProblem.Kind.MOVED,
                    "no frame in %d looks at a thread that showed frames".formatted(EMPTY_LOOKS + 1)));
        }
        if (!marked) {
            // The next snapshot's batch reads this thread's stack too, planned from what it saw now.
            copy.plan(address, tstate);
            reader.ride(copy);
        }
        if (cpu == CpuCheck.Verdict.MAY_RUN) {
            CpuCheck.Settled settled = cpuCheck.settle(nativeId, cache.cpuHistory(), runStates);
            visitor.statusAfterWalk(settled.onCpu() ? status : status & ~ThreadStatus.ON_CPU.bit(), settled.cpuSamples());
        }
        stack.emitTo(visitor);
        int tries = rereads;
        visitor.endThread(problem.map(p -> p.afterRereads(tries)));
    }

    /** One reading over a copy of the stack read in one go; frame by frame when the copy cannot be read whole. */
    private WalkedStack walkCopy(long address, byte[] tstate, StackCopy copy, long gcFrame, CodeObjects codes,
                                 FrameCache cache, SnapshotOptions options) throws MemoryAccessException {
        if (copy.read(reader)) {
            return walker.walkCopied(address, copy, codes, cache, options, gcFrame, motion());
        }
        if (copy.plannedExtras()) {
            return walker.unwalked(UNREADABLE_COPY);
        }
        return walkFrameByFrame(address, tstate, gcFrame, codes, cache, options);
    }

    /** One reading through the snapshot's reader, frame by frame, proven by reading back (or by the marker). */
    private WalkedStack walkFrameByFrame(long address, byte[] tstate, long gcFrame, CodeObjects codes,
                                         FrameCache cache, SnapshotOptions options) throws MemoryAccessException {
        // 3.11 and 3.12 name the current frame in the eval loop's _PyCFrame, which the thread state points at.
        long currentFrameField = offsets.cframe().isPresent()
                ? Bytes.getLong(tstate, (int) offsets.cframe().get().pointer()) + offsets.currentFrame()
                : address + offsets.currentFrame();
        long first;
        try {
            first = offsets.cframe().isPresent() ? reader.readLong(currentFrameField) : Bytes.getLong(tstate, offsets.currentFrame());
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            return walker.unwalked(Optional.of(StackProblem.of(reader.memory().changes() ? StackProblem.Kind.MOVED
                    : StackProblem.Kind.UNREADABLE, "the eval loop's record of the current frame at 0x%x is unreadable"
                    .formatted(currentFrameField))));
        }
        long marker = markerOffset >= 0 ? Bytes.getLong(tstate, markerOffset) : 0;
        long base = baseFrameOffset >= 0 ? Bytes.getLong(tstate, baseFrameOffset) : 0;
        return walker.walk(stackAt.set(address, currentFrameField, first, base, marker), codes, cache, options, gcFrame,
                motion());
    }

    private TargetMotion motion() {
        return stopped != StoppedThreads.RUNNING || !reader.memory().changes() ? TargetMotion.HELD_STILL : TargetMotion.RUNS_ON;
    }
}
