package dev.remora.domain.walk;

import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.domain.asyncio.AsyncGraphBuilder;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.discovery.RuntimeLocator;
import dev.remora.domain.discovery.RuntimeLocator.LocatedRuntime;
import dev.remora.domain.locals.FrameVariablesReader;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;
import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.domain.offsets.UnstartedThreads;
import dev.remora.domain.offsets.VariableLayout;
import dev.remora.ports.CpuState;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ThreadCpuClocks;

import java.util.Optional;
import java.util.function.LongFunction;

/**
 * An attached CPython process: finds its runtime once, then walks its interpreters, threads and frames
 * on demand, keeping code-object and frame caches between walks. Not thread-safe: one sampler owns it.
 */
public final class PythonProcess {

    private static final int MAX_INTERPRETERS = 4096;
    private static final int MAX_THREADS = 1 << 16;
    /** A running target can change under a walk; a few fresh attempts usually give a clean snapshot. */
    private static final int ATTEMPTS = 3;
    /**
     * Fresh reads of one thread's stack within a tick, after the first, before the tick counts as an
     * error: a stack that changes every few microseconds still gives a proven walk within a few.
     */
    static final int MAX_REREADS = 32;
    /** Looks again at an empty stack of a thread that showed frames: one was not always enough for 3.12. */
    static final int EMPTY_LOOKS = 3;
    /** Readings of a thread list that keeps changing under them before the walk fails. */
    private static final int LIST_ATTEMPTS = 16;

    private final ProcessImage image;
    private final RemoteMemory memory;
    private final LocatedRuntime runtime;
    private final DebugOffsets offsets;
    private final SnapshotReader reader;
    private final ObjectReader objects;
    private final ThreadStatusReader statusReader;
    private final CpuCheck cpuCheck;
    /** Each thread's run state as the OS gives it now; made once, not per walk. */
    private final LongFunction<CpuState> osRunStates;
    private final NativeThreadIds nativeIds;
    private final FrameWalker walker;
    private final CodeObjectsByInterpreter codes;
    private final FrameCaches frameCaches = new FrameCaches();
    private final ChainGuard interpreterGuard = new ChainGuard(MAX_INTERPRETERS, 0);
    private final InterpreterListHead interpreterList;
    private final ChainGuard threadGuard = new ChainGuard(MAX_THREADS, 0);
    /** The thread states of the interpreter being walked. */
    private long[] threads = new long[64];
    /** Their states as the list was read, each {@link #tstate} long. */
    private byte[][] states = new byte[64][];
    private int threadCount;
    private final byte[] interpreter;
    private final long interpreterStart;
    private final byte[] tstate;
    private final byte[] gilLocked = new byte[4];
    private final long markerOffset;
    private final long baseFrameOffset;
    private AsyncGraphBuilder asyncio;
    private long walks;

    private PythonProcess(ProcessImage image, RemoteMemory memory, LocatedRuntime runtime) {
        this.image = image;
        this.memory = memory;
        this.runtime = runtime;
        this.offsets = runtime.offsets();
        this.reader = new SnapshotReader(memory);
        this.interpreterList = new InterpreterListHead(runtime.address() + offsets.runtime().interpretersHead());
        this.objects = new ObjectReader(reader, offsets);
        this.statusReader = new ThreadStatusReader(offsets, reader);
        this.cpuCheck = new CpuCheck(System::nanoTime);
        this.osRunStates = image::cpuState;
        this.nativeIds = new NativeThreadIds(offsets.thread(), image.pid());
        this.walker = new FrameWalker(reader, offsets);
        this.codes = new CodeObjectsByInterpreter(reader, objects, offsets);
        this.interpreterStart = firstInterpreterField(offsets.interpreter());
        this.interpreter = new byte[offsets.interpreter().readLength() - (int) interpreterStart];
        this.tstate = new byte[offsets.thread().readLength()];
        this.markerOffset = offsets.thread().lastProfiledFrame().orElse(-1);
        this.baseFrameOffset = offsets.thread().baseFrame().orElse(-1);
    }

    public static PythonProcess attach(ProcessImage image, RemoteMemory memory) throws InspectionException {
        return at(image, memory, new RuntimeLocator(image, memory).locate());
    }

    /** A process whose runtime is already known (a core's, or a test's). */
    static PythonProcess at(ProcessImage image, RemoteMemory memory, LocatedRuntime runtime) {
        return new PythonProcess(image, memory, runtime);
    }

    public PythonVersion version() {
        return offsets.version();
    }

    public int pid() {
        return image.pid();
    }

    public String backendName() {
        return memory.backendName();
    }

    /**
     * Lets walks keep each thread's {@code last_profiled_frame} marker (CPython 3.15+) on the current
     * frame of a deep stack, by writing into the target, so that later walks read only the frames
     * above it. The target moves the marker to the caller when it pops the marked frame, which is
     * what proves the frames below unchanged. Another profiler writing the same marker at the same
     * time would defeat that proof.
     *
     * @throws InspectionException.Unsupported when the target has no marker or the memory cannot be written
     */
    public void useFrameMarkers() throws InspectionException {
        if (!walker.markersSupported()) {
            throw new InspectionException.Unsupported("CPython %s keeps no frame marker for profilers (3.15 and later do)"
                    .formatted(offsets.version()));
        }
        if (!memory.writable()) {
            throw new InspectionException.Unsupported("the %s backend cannot write the frame marker into the target"
                    .formatted(memory.backendName()));
        }
        walker.useMarkers();
    }

    /**
     * Checks that walks can tell which threads are handling an exception, as an exception-mode
     * profile keeps only those: a target whose thread states do not show it would give an empty
     * profile that looks like a program that never handles one.
     *
     * @throws InspectionException.Unsupported when the target's layout does not show handled exceptions
     */
    public void requireHandledExceptions() throws InspectionException {
        DebugOffsets.Thread thread = offsets.thread();
        if (thread.currentException().isEmpty() && thread.excStateValue().isEmpty()) {
            throw new InspectionException.Unsupported(("CPython %s does not show which exception a thread is handling"
                    + " (3.13 and later do), so an exception-mode profile of it would be empty").formatted(offsets.version()));
        }
    }

    /**
     * Another writer of the frame markers (another profiler taking a turn on the target) may have
     * moved them since the last walk: the next walks prove each thread's marker afresh before they
     * trust the frames below it again.
     */
    public void distrustFrameMarkers() {
        frameCaches.distrustMarkers();
    }

    /**
     * Tells whether a thread is on a CPU by its CPU clock, read around each walk, rather than by the
     * OS's run state, which counts waiting for a CPU as running; {@code tickNanos} is the time between
     * walks that a sample stands for. Threads whose clock cannot be read fall back on the run state.
     */
    public void useCpuClocks(ThreadCpuClocks clocks, long tickNanos) {
        cpuCheck.use(clocks, tickNanos);
    }

    public WalkStats stats() {
        return new WalkStats(walks, codes.hits(), codes.misses(), frameCaches.hits(), frameCaches.misses(), reader.remoteReads(),
                reader.remoteBytes(), reader.batches(), walker.checksFromBatch(), walker.checkReads(), walker.markerWalks(),
                walker.framesBelowMarker(), walker.markerWrites());
    }

    /** A consistent snapshot: walks again (a few times) when the running target changed under a walk. */
    public ProcessStacks snapshot(SnapshotOptions options) throws InspectionException {
        return snapshot(options, Optional.empty());
    }

    /**
     * A snapshot whose frames carry their variables, read from memory as each frame is met.
     *
     * @throws InspectionException.Unsupported when the target's layout does not say where variables live
     */
    public ProcessStacks snapshotWithVariables(SnapshotOptions options) throws InspectionException {
        FrameVariablesReader variables = variablesReader();
        return snapshot(options, Optional.of(variables::read));
    }

    private FrameVariablesReader variablesReader() throws InspectionException.Unsupported {
        VariableLayout layout = offsets.variables().orElseThrow(() -> new InspectionException.Unsupported(
                "CPython %s: reading frame variables is not supported for this build".formatted(offsets.version())));
        return new FrameVariablesReader(memory, offsets, layout);
    }

    private ProcessStacks snapshot(SnapshotOptions options, Optional<SnapshotCollector.VariablesOfFrame> variables)
            throws InspectionException {
        SnapshotCollector collector = null;
        if (walks == 0 && memory.changes()) {
            // Plans the batch, so that the walk that counts reads the interpreter state (GC frame, GIL)
            // and every stack in one read, at one moment.
            walk(options, osRunStates, new SnapshotCollector());
        }
        // A core does not change: what one walk could not read, another cannot either.
        int attempts = memory.changes() ? ATTEMPTS : 1;
        for (int attempt = 0; attempt < attempts; attempt++) {
            collector = new SnapshotCollector(variables);
            walk(options, osRunStates, collector);
            if (!collector.incomplete()) {
                break;
            }
        }
        return new ProcessStacks(image.pid(), offsets.version(), memory.backendName(), collector.interpreters());
    }

    /**
     * The asyncio task graph (CPython 3.14+), read with this process's reader and code caches.
     *
     * @throws InspectionException.AsyncioUnavailable when the target's CPython exports no asyncio
     *     layout, or the target has not imported asyncio
     */
    public AsyncSnapshot asyncSnapshot(AsyncMode mode) throws InspectionException {
        return asyncGraph().snapshot(mode);
    }

    /** The asyncio task graph with each task frame's variables, read from memory as each frame is met. */
    public AsyncSnapshot asyncSnapshotWithVariables(AsyncMode mode) throws InspectionException {
        return asyncGraph().snapshot(mode, Optional.of(variablesReader()));
    }

    private AsyncGraphBuilder asyncGraph() {
        if (asyncio == null) {
            asyncio = new AsyncGraphBuilder(image, reader, objects, offsets, runtime.address(),
                    new SharedCodeResolver(reader, offsets, codes));
        }
        return asyncio;
    }

    /** One pass over the threads, reported to {@code visitor} as it goes; the sampler's entry point. */
    public void sample(SnapshotOptions options, StackVisitor visitor) throws InspectionException {
        walk(options, osRunStates, visitor);
    }

    /**
     * As {@link #sample(SnapshotOptions, StackVisitor)}, with each thread's run state as the OS gave it
     * before the walk: a stopped target's threads are all stopped while it is read.
     */
    public void sample(SnapshotOptions options, LongFunction<CpuState> runStates, StackVisitor visitor) throws InspectionException {
        walk(options, runStates, visitor);
    }

    private void walk(SnapshotOptions options, LongFunction<CpuState> runStates, StackVisitor visitor) throws InspectionException {
        walks++;
        reader.reset();
        frameCaches.beginWalk();
        try {
            long head = interpreterList.forWalk(reader);
            if (head == 0) {
                throw new InspectionException.Unreadable(
                        "process %d has no Python interpreter (not started yet, or shutting down)".formatted(image.pid()));
            }
            ChainGuard guard = interpreterGuard.restart(MAX_INTERPRETERS, head);
            int interpreters = 0;
            for (long interp = head; interp != 0; ) {
                long next = interpreter(interp, options, runStates, visitor);
                interpreters++;
                if (next != 0 && !guard.step(next)) {
                    throw corruptList("interpreter", guard);
                }
                interp = next;
            }
            interpreterList.walked(reader, head, interpreters, System.nanoTime());
        } catch (MemoryAccessException e) {
            interpreterList.forget();
            throw Failures.from(e, image.pid());
        } catch (InspectionException e) {
            interpreterList.forget();
            throw e;
        }
        frameCaches.endWalk();
    }

    /** Walks one interpreter's threads; returns the next interpreter's address. */
    private long interpreter(long address, SnapshotOptions options, LongFunction<CpuState> runStates, StackVisitor visitor)
            throws MemoryAccessException, InspectionException {
        DebugOffsets.Interpreter io = offsets.interpreter();
        reader.read(address + interpreterStart, interpreter, 0, interpreter.length);
        long id = interpreterLong(io.id());
        long next = interpreterLong(io.next());
        long gilHolder = gilHolder(io);
        long gcFrame = io.gcFrame().isPresent() ? interpreterLong(io.gcFrame().getAsLong()) : 0;
        CodeObjects codes = this.codes.of(address);
        if (io.codeObjectGeneration().isPresent()) {
            codes.observeGeneration(interpreterLong(io.codeObjectGeneration().getAsLong()));
        }
        readThreadStates(address, interpreterLong(io.threadsHead()));
        // 3.14+ names the main thread; before that it is the oldest thread state, the last in the list.
        long main = io.threadsMain().isPresent() ? interpreterLong(io.threadsMain().getAsLong())
                : threadCount == 0 ? 0 : threads[threadCount - 1];
        for (int i = 0; i < threadCount; i++) {
            if (threads[i] == main) {
                nativeIds.learnFrom(states[i], reader);
            }
        }
        visitor.beginInterpreter(id);
        for (int i = 0; i < threadCount; i++) {
            long t = threads[i];
            if (!options.allThreads() && t != main) {
                continue;
            }
            // A thread state whose thread has not started yet has no OS thread and no frame: not a thread yet.
            long nativeId = nativeIds.of(states[i], reader);
            if (notStarted(i, nativeId)) {
                visitor.threadNotStarted();
                continue;
            }
            System.arraycopy(states[i], 0, tstate, 0, tstate.length);
            // A 3.10 thread whose kernel id cannot be told is shown all the same, as thread 0.
            thread(id, t, Math.max(0, nativeId), t == main, gilHolder, gcFrame, codes, options, runStates, visitor);
        }
        return next;
    }

    /**
     * The thread state holding the GIL, or 0 while it is free: the interpreter's own GIL from 3.12,
     * before that the runtime's one GIL. {@code last_holder} keeps its value after a release, so it
     * counts only while the GIL is locked.
     */
    private long gilHolder(DebugOffsets.Interpreter io) throws MemoryAccessException {
        if (io.gilLocked().isPresent()) {
            return Bytes.getInt(interpreter, io.gilLocked().getAsLong() - interpreterStart) != 0
                    ? interpreterLong(io.gilHolder().getAsLong()) : 0;
        }
        DebugOffsets.Runtime ro = offsets.runtime();
        if (ro.gilLocked().isEmpty()) {
            return 0;
        }
        reader.read(runtime.address() + ro.gilLocked().getAsLong(), gilLocked, 0, 4);
        return Bytes.getInt(gilLocked, 0) != 0 ? reader.readLong(runtime.address() + ro.gilHolder().getAsLong()) : 0;
    }

    /**
     * Whether thread state {@code i} of the list just read belongs to a thread not started yet: one
     * with no native id, or (3.11) one with its creator's id and no data stack, newer than its creator.
     */
    private boolean notStarted(int i, long nativeId) {
        DebugOffsets.Thread to = offsets.thread();
        if (nativeId == 0) {
            return true;
        }
        // Nothing run yet: no data stack (3.11), no frame (3.10, whose frames are heap objects).
        boolean ranNothing = to.datastackChunk().isPresent()
                ? Bytes.getLong(states[i], to.datastackChunk().getAsLong()) == 0
                : Bytes.getLong(states[i], to.currentFrame()) == 0;
        if (offsets.layout().unstartedThreads() != UnstartedThreads.CREATOR_IDS || !ranNothing) {
            return false;
        }
        long threadId = Bytes.getLong(states[i], to.threadId());
        for (int older = i + 1; older < threadCount; older++) {
            if (Bytes.getLong(states[older], to.threadId()) == threadId) {
                return true;
            }
        }
        return false;
    }

    /** A field of the interpreter state, from the window of it read this walk. */
    private long interpreterLong(long offset) {
        return Bytes.getLong(interpreter, offset - interpreterStart);
    }

    /** The used fields sit together near the end of a large struct; read from the first of them only. */
    private static long firstInterpreterField(DebugOffsets.Interpreter io) {
        long first = Math.min(Math.min(io.id(), io.next()), io.threadsHead());
        first = Math.min(first, io.gilLocked().orElse(first));
        first = Math.min(first, io.gilHolder().orElse(first));
        first = Math.min(first, io.threadsMain().orElse(first));
        first = Math.min(first, io.codeObjectGeneration().orElse(first));
        return Math.min(first, io.gcFrame().orElse(first));
    }

    /**
     * Fills {@link #threads} and {@link #states} with the interpreter's thread states, newest first.
     * Threads start and exit while the list is read: a list whose links do not hold together (a state
     * not of this interpreter, a {@code prev} that does not lead back, memory freed meanwhile) is read
     * again apart from the batch, a few times, before the walk fails.
     */
    private void readThreadStates(long interpreterAddress, long head) throws MemoryAccessException, InspectionException {
        boolean fresh = false;
        for (int attempt = 0; attempt < LIST_ATTEMPTS; attempt++) {
            try {
                if (fresh) {
                    reader.readApart(interpreterAddress + interpreterStart, interpreter, 0, interpreter.length);
                    head = interpreterLong(offsets.interpreter().threadsHead());
                }
                // A thread being added or removed leaves the links half changed for a moment: read again.
                if (readThreadList(interpreterAddress, head, fresh) || !memory.changes()) {
                    // A core's list can be caught mid-update: the threads that held together are its threads.
                    return;
                }
            } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
                if (!memory.changes()) {
                    return; // a core that left a thread state out: the threads before it are its threads
                }
                // A thread state freed while the list was read.
            }
            fresh = true;
        }
        throw new InspectionException.Unreadable("the thread list of process %d kept changing while it was read"
                .formatted(image.pid()));
    }

    /** One reading of the thread list; whether its links hold together. */
    private boolean readThreadList(long interpreterAddress, long head, boolean fresh)
            throws MemoryAccessException, InspectionException {
        DebugOffsets.Thread to = offsets.thread();
        threadCount = 0;
        ChainGuard guard = threadGuard.restart(MAX_THREADS, head);
        long previous = 0;
        for (long t = head; t != 0; ) {
            if (threadCount == threads.length) {
                threads = java.util.Arrays.copyOf(threads, threadCount * 2);
                states = java.util.Arrays.copyOf(states, threadCount * 2);
            }
            if (states[threadCount] == null) {
                states[threadCount] = new byte[tstate.length];
            }
            byte[] state = states[threadCount];
            if (fresh) {
                reader.readApart(t, state, 0, state.length);
                reader.planLate(t, state.length);
            } else {
                // Thread states are read late in a snapshot's batch: see SnapshotReader.
                reader.readLate(t, state, 0, state.length);
            }
            if (Bytes.getLong(state, to.interp()) != interpreterAddress) {
                return false; // not of this interpreter
            }
            long next = Bytes.getLong(state, to.next());
            if (next != 0 && !guard.step(next)) {
                if (!fresh) {
                    return false; // perhaps a loop only in bytes from before a change: read it again
                }
                throw corruptList("thread", guard);
            }
            if (Bytes.getLong(state, to.prev()) != previous) {
                return false; // its prev does not lead back
            }
            threads[threadCount++] = t;
            previous = t;
            t = next;
        }
        return true;
    }

    private void thread(long interpreterId, long address, long nativeId, boolean main, long gilHolder, long gcFrame,
                        CodeObjects codes,
                        SnapshotOptions options, LongFunction<CpuState> runStates, StackVisitor visitor) throws MemoryAccessException {
        // Claimed before the filter: a thread a mode skips this time keeps its cache for the next.
        FrameCache cache = frameCaches.forThread(address);
        CpuCheck.Verdict cpu = options.cpuState() ? cpuCheck.start(nativeId, cache.cpuHistory(), runStates) : CpuCheck.Verdict.UNCLOCKED;
        CpuState cpuState = cpu != CpuCheck.Verdict.UNCLOCKED ? cpu.state()
                : options.cpuState() ? runStates.apply(nativeId) : CpuState.UNKNOWN;
        int status = statusReader.read(address, tstate, gilHolder, main, cpuState);
        if (!visitor.beginThread(interpreterId, nativeId, status)) {
            return;
        }
        StackCopy copy = cache.copy(offsets.thread());
        boolean hadFrames = cache.lastWalkShowedFrames();
        boolean marked = walker.usesMarkers();
        Optional<StackProblem> problem;
        if (marked) {
            // Reads frame by frame, to reuse what lies below the marker.
            problem = walkThread(address, null, gcFrame, codes, cache, options);
        } else {
            if (!copy.rodeAlong(reader)) {
                copy.planFrom(address, tstate);
            }
            problem = walkThread(address, copy, gcFrame, codes, cache, options);
        }
        int rereads = 0;
        int emptyLooks = 0;
        // The tick stands for this moment: a stack that moved under the walk is copied again at once.
        // Every kind: on a running target, a malformed or unreadable stack is mostly one read as it moved.
        // A core does not change, but a copy that lacked part of the stack (3.11's and 3.12's _PyCFrame on
        // the C stack) holds it when read again. A live thread that showed frames last time and none now
        // gets a few more looks: 3.11 and 3.12 point the thread state at an eval loop's _PyCFrame before
        // they fill in its current frame, and an empty stack is no sample at all.
        while (rereads < MAX_REREADS && (memory.changes() || copy.missed()) && (problem.isPresent()
                || memory.changes() && hadFrames && emptyLooks < EMPTY_LOOKS && walker.walkedNothing())) {
            if (problem.isEmpty()) {
                emptyLooks++;
            }
            if (marked && rereads == 0) {
                copy.planFrom(address, tstate);
            } else {
                copy.plan(address, tstate);
            }
            rereads++;
            problem = walkThread(address, copy, gcFrame, codes, cache, options);
        }
        if (problem.isEmpty() && emptyLooks == EMPTY_LOOKS && walker.walkedNothing()) {
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
        walker.emit(visitor);
        int tries = rereads;
        visitor.endThread(problem.map(p -> p.afterRereads(tries)));
    }

    /** One walk of the thread's stack: over a copy read in one go, or through the snapshot's reader. */
    private Optional<StackProblem> walkThread(long address, StackCopy copy, long gcFrame, CodeObjects codes,
                                              FrameCache cache, SnapshotOptions options) throws MemoryAccessException {
        if (copy != null) {
            if (copy.read(reader)) {
                return walker.walkCopied(address, copy, codes, cache, options, gcFrame);
            }
            if (copy.plannedExtras()) {
                return Optional.of(StackProblem.of(StackProblem.Kind.UNREADABLE, "a range of the stack copy was unreadable"));
            }
        }
        DebugOffsets.Thread to = offsets.thread();
        // 3.11 and 3.12 name the current frame in the eval loop's _PyCFrame, which the thread state points at.
        long currentFrameField = to.cframe().isPresent()
                ? Bytes.getLong(tstate, (int) to.cframe().get().pointer()) + to.currentFrame()
                : address + to.currentFrame();
        long first;
        try {
            first = to.cframe().isPresent() ? reader.readLong(currentFrameField) : Bytes.getLong(tstate, to.currentFrame());
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            return Optional.of(StackProblem.of(memory.changes() ? StackProblem.Kind.MOVED : StackProblem.Kind.UNREADABLE,
                    "the eval loop's record of the current frame at 0x%x is unreadable".formatted(currentFrameField)));
        }
        long marker = markerOffset >= 0 ? Bytes.getLong(tstate, markerOffset) : 0;
        long base = baseFrameOffset >= 0 ? Bytes.getLong(tstate, baseFrameOffset) : 0;
        return walker.walk(address, currentFrameField, first, base, marker, codes, cache, options, gcFrame);
    }

    private InspectionException corruptList(String what, ChainGuard guard) {
        return new InspectionException.CorruptTarget("the %s list of process %d %s".formatted(what, image.pid(),
                guard.tooLong() ? "is longer than any real one: memory is inconsistent" : "loops"));
    }
}
