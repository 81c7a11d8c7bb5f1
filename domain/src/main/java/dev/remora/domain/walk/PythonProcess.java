package dev.remora.domain.walk;

import dev.remora.domain.threads.Interpreters;
import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.domain.asyncio.AsyncGraphBuilder;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.discovery.RuntimeLocator;
import dev.remora.domain.discovery.RuntimeLocator.LocatedRuntime;
import dev.remora.domain.locals.FrameVariablesReader;
import dev.remora.domain.locals.ThreadNamesReader;
import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.model.ThreadNames;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.nativestack.EvalCall;
import dev.remora.domain.nativestack.EvalCalls;
import dev.remora.domain.nativestack.ThreadKey;
import dev.remora.domain.model.StackVisitor;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.domain.offsets.VariableLayout;
import dev.remora.ports.CpuState;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ThreadCpuClocks;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * An attached CPython process: finds its runtime once, then walks its interpreters, threads and frames
 * on demand, keeping code-object and frame caches between walks. Not thread-safe: one sampler owns it.
 */
public final class PythonProcess {

    /** A running target can change under a walk; a few fresh attempts usually give a clean snapshot. */
    private static final int ATTEMPTS = 3;

    private final ProcessImage image;
    private final RemoteMemory memory;
    private final LocatedRuntime runtime;
    private final DebugOffsets offsets;
    private final SnapshotReader reader;
    private final ObjectReader objects;
    private final CpuCheck cpuCheck = new CpuCheck(System::nanoTime);
    /** Each thread's run state as the OS gives it now; made once, not per walk. */
    private final LongFunction<CpuState> osRunStates;
    private final FrameWalker walker;
    private final CodeObjectsByInterpreter codes;
    private final FrameCaches frameCaches = new FrameCaches();
    private final ProcessWalk processWalk;
    private final ThreadWalk threadWalk;
    private AsyncGraphBuilder asyncio;
    private EvalCalls evalCalls;
    private Interpreters evalCallThreads;
    private ThreadNamesReader threadNames;
    private Interpreters namedThreads;
    private long walks;

    private PythonProcess(ProcessImage image, RemoteMemory memory, LocatedRuntime runtime) {
        this.image = image;
        this.memory = memory;
        this.runtime = runtime;
        this.offsets = runtime.offsets();
        this.reader = new SnapshotReader(memory, offsets.layout().poppedFrames().stateOrder());
        this.objects = new ObjectReader(reader, offsets);
        this.osRunStates = image::cpuState;
        this.walker = new FrameWalker(reader, offsets);
        this.codes = new CodeObjectsByInterpreter(reader, objects, offsets);
        this.threadWalk = new ThreadWalk(reader, offsets, frameCaches, cpuCheck, walker);
        this.processWalk = new ProcessWalk(reader, new Interpreters(reader, offsets, runtime.address(), image.pid()), codes,
                frameCaches, threadWalk);
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
     * Tells walks that the target is stopped for each of them ({@code --blocking}) and how to let its
     * threads run on a moment: a thread stopped in the middle of a call is then read again once it
     * has run on, rather than read torn again and again.
     */
    public void stoppedForEachWalk(StoppedThreads threads) {
        threadWalk.stoppedBy(threads);
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
     * {@code stacks} with each thread's name, where the target's threading module gives one: read
     * apart from the walk, for what shows threads by name (a dump), not for what only counts them.
     */
    public ProcessStacks named(ProcessStacks stacks) {
        ThreadNames names;
        try {
            names = threadNames();
        } catch (InspectionException e) {
            return stacks; // the stacks stand without names
        }
        return new ProcessStacks(stacks.pid(), stacks.pythonVersion(), stacks.backend(), stacks.interpreters().stream()
                .map(interp -> new InterpreterStacks(interp.interpreterId(),
                        interp.threads().stream().map(t -> t.named(names.of(t.threadId()))).toList(), interp.notStarted()))
                .toList());
    }

    /**
     * Each thread's name as its interpreter's {@code threading} module knows it, by OS thread id, read
     * now; an interpreter whose names cannot be read is named among the problems, not thrown.
     */
    public ThreadNames threadNames() throws InspectionException {
        Optional<VariableLayout> layout = offsets.variables();
        if (layout.isEmpty()) {
            return new ThreadNames(Map.of(), List.of("CPython %s: this build's layout does not say where objects keep their fields"
                    .formatted(offsets.version())));
        }
        if (threadNames == null) {
            threadNames = new ThreadNamesReader(memory, offsets, layout.get());
            namedThreads = new Interpreters(reader, offsets, runtime.address(), image.pid());
        }
        Interpreters.Listing listing;
        try {
            listing = namedThreads.listing();
        } catch (MemoryAccessException e) {
            throw Failures.from(e, image.pid());
        }
        Map<Long, Map<Long, String>> byInterpreter = new HashMap<>();
        List<String> problems = new ArrayList<>();
        for (long interpreter : listing.interpreters()) {
            try {
                byInterpreter.put(interpreter, threadNames.read(interpreter));
            } catch (ThreadNamesReader.Unreadable e) {
                problems.add(e.getMessage());
            }
        }
        Map<Long, String> byThread = new HashMap<>();
        for (Interpreters.ThreadRef thread : listing.threads()) {
            String name = byInterpreter.getOrDefault(thread.interpreter(), Map.of()).get(thread.ident());
            if (name != null && thread.nativeId() > 0) {
                byThread.putIfAbsent(thread.nativeId(), name);
            }
        }
        return new ThreadNames(byThread, problems);
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
            asyncio = new AsyncGraphBuilder(image, reader, objects, offsets,
                    new Interpreters(reader, offsets, runtime.address(), image.pid()), new SharedCodeResolver(reader, offsets, codes));
        }
        return asyncio;
    }

    /** The file the interpreter runs from (the executable, or libpython): where its eval loop is. */
    public String interpreterFile() {
        return runtime.file();
    }

    /**
     * Each started thread state's eval-loop calls, innermost first: read straight from memory, so only
     * for a stopped process or a core.
     */
    public Map<ThreadKey, List<EvalCall>> evalCalls() throws InspectionException {
        if (evalCalls == null) {
            // Made once: a profile with C frames asks at every sample.
            evalCalls = new EvalCalls(memory, offsets);
            evalCallThreads = new Interpreters(reader, offsets, runtime.address(), image.pid());
        }
        EvalCalls calls = evalCalls;
        Map<ThreadKey, List<EvalCall>> byThread = new LinkedHashMap<>();
        try {
            evalCallThreads.read((window, threads) -> {
                for (int i = 0; i < threads.count(); i++) {
                    long nativeId = threads.nativeId(i);
                    if (threads.notStarted(i, nativeId)) {
                        continue;
                    }
                    List<EvalCall> read;
                    try {
                        read = calls.of(threads.address(i));
                    } catch (MemoryAccessException e) {
                        read = List.of(); // left unmerged, with the reason the merge gives
                    }
                    byThread.put(new ThreadKey(window.id(), Math.max(0, nativeId)), read);
                }
            });
        } catch (MemoryAccessException e) {
            throw Failures.from(e, image.pid());
        }
        return byThread;
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
        try {
            processWalk.walk(options, runStates, visitor);
        } catch (MemoryAccessException e) {
            throw Failures.from(e, image.pid());
        }
    }
}
