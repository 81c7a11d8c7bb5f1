package dev.remora.app.cli;

import dev.remora.adapters.vmreadv.PerfTaskClocks;
import dev.remora.app.profiling.HeapWatch;
import dev.remora.app.profiling.RealtimeWakeups;
import dev.remora.app.profiling.Sampler;
import dev.remora.app.profiling.SamplerListener;
import dev.remora.app.profiling.SamplerPriority;
import dev.remora.app.profiling.SamplerProgress;
import dev.remora.app.wiring.TargetPorts;
import dev.remora.domain.InspectionException;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.TaskStacks;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;
import dev.remora.domain.nativestack.CFramesVisitor;
import dev.remora.domain.nativestack.InternalFrames;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SampleKeeping;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessStopper;
import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ThreadCpuClocks;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * One profiling run against an attached process: samples until the duration is over, the target
 * exits or the user presses Ctrl-C, then writes the profile. Ctrl-C stops sampling, it does not lose
 * what was collected.
 */
final class ProfileSession {

    private static final long WINDOW_NANOS = 1_000_000_000L;
    /** How long the target is walked before the first tick; see {@link #warmUp}. */
    private static final long WARM_UP_NANOS = 300_000_000L;

    private final PythonProcess process;
    private final ThreadNaming naming;
    private final ProcessImage image;
    private final RemoteMemory memory;
    private final ProfileOptions options;
    private final ProfileSink output;
    private final PrintWriter err;
    private final FirstTick firstTick;

    private boolean targetExited;
    private long durationNanos;
    private ProcessStopper stopper;

    /** When the first tick is taken. */
    enum FirstTick {
        /** At once: the target has just started (run, a new child), and its first moments count. */
        AT_ONCE,
        /** After the target has been walked, unrecorded, for a moment; see {@link #warmUp}. */
        AFTER_WARM_UP
    }

    ProfileSession(PythonProcess process, TargetPorts ports, ProfileOptions options, ProfileSink output, PrintWriter err,
                   FirstTick firstTick) {
        this.firstTick = firstTick;
        this.process = process;
        this.image = ports.image();
        this.naming = new ThreadNaming(process::threadNames, image);
        this.memory = ports.memory();
        this.options = options;
        this.output = output;
        this.err = err;
        output.sourcesFrom(image);
    }

    /** Whether the last {@link #run} ended because the target went away. */
    boolean targetExited() {
        return targetExited;
    }

    int run(BooleanSupplier targetAlive) throws Exception {
        return run(targetAlive, options.durationNanos());
    }

    /** As {@link #run(BooleanSupplier)}, sampling for {@code durationNanos} at most (0: no limit). */
    int run(BooleanSupplier targetAlive, long durationNanos) throws Exception {
        this.durationNanos = durationNanos;
        if (options.frameMarker) {
            process.useFrameMarkers();
        }
        if (options.mode == ProfileMode.EXCEPTION) {
            process.requireHandledExceptions();
        }
        // Seized on the thread that samples: the system ties a stopped process to the thread that stops it.
        try (ProcessStopper stopper = options.blocking ? StoppedSamples.seize(process.pid()) : null;
             ThreadCpuClocks clocks = cpuClocks()) {
            this.stopper = stopper;
            process.useCpuClocks(clocks, options.rate.intervalNanos());
            return sample(targetAlive);
        } finally {
            this.stopper = null;
            process.useCpuClocks(ThreadCpuClocks.NONE, options.rate.intervalNanos());
        }
    }

    /**
     * Each thread's CPU clock, where walks ask whether threads are on a CPU: the OS's run state alone
     * would credit a thread CPU time while it waits for one. Not with --blocking, whose stopped threads
     * have no CPU while they are read.
     */
    private ThreadCpuClocks cpuClocks() {
        if (!cpuState() || options.blocking) {
            return ThreadCpuClocks.NONE;
        }
        try {
            return PerfTaskClocks.open(process.pid());
        } catch (IOException e) {
            if (options.mode == ProfileMode.CPU) {
                synchronized (err) {
                    err.println("Note: " + e.getMessage() + "; cpu mode counts a thread waiting for a CPU as on one.");
                    err.flush();
                }
            }
            return ThreadCpuClocks.NONE;
        }
    }

    private boolean cpuState() {
        return options.mode == ProfileMode.CPU || options.format() == OutputFormat.gecko;
    }

    private int sample(BooleanSupplier targetAlive) throws Exception {
        int unsampledThreads = warmUp();
        ProfileInfo info = new ProfileInfo(process.pid(), process.version().toString(), process.backendName(), options.mode,
                options.rate.intervalNanos(), System.currentTimeMillis());
        ProfileBuilder builder = new ProfileBuilder(info, options.format().samplesKept());
        Listener listener = new Listener();
        Sampler sampler = new Sampler(source(walkOptions()), builder,
                new Sampler.Settings(options.rate.intervalNanos(), durationNanos, WINDOW_NANOS), listener,
                options.normalPriority ? SamplerPriority.UNCHANGED : new RealtimeWakeups());

        AtomicBoolean interrupted = new AtomicBoolean();
        HeapWatch heap = HeapWatch.ofThisJvm();
        BooleanSupplier heapFull = () -> heap.nearlyFull() || builder.profile().samples().full();
        CountDownLatch written = new CountDownLatch(1);
        Thread onInterrupt = new Thread(() -> {
            interrupted.set(true);
            try {
                // Let the main thread write what was collected before the JVM goes.
                written.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException ignored) {
                Thread.currentThread().interrupt();
            }
        }, "remora-interrupt");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        started(unsampledThreads);
        try {
            SamplingStats stats;
            try {
                stats = sampler.run(() -> interrupted.get() || output.stopRequested() || heapFull.getAsBoolean(), targetAlive);
            } finally {
                output.samplingEnded(); // the live view gives the terminal back, whatever happened
            }
            if (listener.drewLine) {
                err.println();
            }
            if (heap.stopped() || builder.profile().samples().full()) {
                err.println("Stopped early: the profile filled " + Math.round(HeapWatch.FULL * 100) + "% of the heap ("
                        + HeapWatch.maxMebibytes() + " MiB); writing what was collected. "
                        + (options.format().samplesKept() == SampleKeeping.EVERY_SAMPLE ? "--" + options.format() + " keeps every sample;"
                        + " other formats keep counts, or JAVA_OPTS=-Xmx... gives more heap." : "JAVA_OPTS=-Xmx... gives more heap."));
            }
            naming.nameAllThreads(builder.profile());
            targetExited = sampler.targetExited();
            summary(stats, interrupted.get(), targetExited);
            output.write(builder.profile());
            return 0;
        } finally {
            written.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            } catch (IllegalStateException shuttingDown) {
                // Already running: it is waiting for the countDown above.
            }
        }
    }

    /**
     * Walks the target, unrecorded, for a moment before the first tick. A fresh JVM runs its first walks
     * interpreted, and they read every code object for the first time: milliseconds each, so the first
     * ticks fall behind and are caught up in a burst, all of it on whatever the target does as the
     * burst is taken. Only for a target that was running already; not with --blocking, whose walks
     * would each stop the target. Returns how many of its Python threads the run will not sample (all
     * but the main one, without -a), for the line that says sampling began.
     */
    private int warmUp() throws InspectionException {
        if (firstTick != FirstTick.AFTER_WARM_UP || stopper != null) {
            return 0;
        }
        int unsampled = options.allThreads ? 0 : otherPythonThreads();
        // Without the CPU check: its history of each thread's clock is for the ticks alone.
        Sampler.Source walk = source(walkOptions().withCpuState(false));
        ProfileBuilder discarded = new ProfileBuilder(new ProfileInfo(process.pid(), process.version().toString(),
                process.backendName(), ProfileMode.WALL, options.rate.intervalNanos(), 0));
        long start = System.nanoTime();
        while (System.nanoTime() - start < WARM_UP_NANOS) {
            discarded.beginSample(System.nanoTime() - start);
            try {
                walk.sampleInto(discarded);
            } catch (InspectionException.TargetGone gone) {
                return unsampled; // the sampler will find out at its first tick, and say so
            } catch (InspectionException e) {
                discarded.tickFailed();
            }
        }
        return unsampled;
    }

    /**
     * The target's Python threads besides its main one (0 when they cannot be read): the thread list
     * alone, every walk declined, so that the first tick does not wait for stacks no one asked for.
     */
    private int otherPythonThreads() {
        int[] threads = {0};
        try {
            process.sample(SnapshotOptions.of(SnapshotOptions.Threads.ALL), new StackVisitor() {
                @Override
                public boolean beginThread(long interpreterId, long threadId, int status) {
                    threads[0]++;
                    return false;
                }

                @Override
                public void frame(FrameInfo frame) {}

                @Override
                public void endThread(Optional<StackProblem> problem) {}
            });
        } catch (InspectionException e) {
            return 0;
        }
        return Math.max(0, threads[0] - 1);
    }

    /** What each sample reads: thread stacks, or with --async-aware the chains of asyncio tasks. */
    private Sampler.Source source(SnapshotOptions walk) throws InspectionException {
        if (options.asyncAware) {
            AsyncMode mode = options.asyncMode();
            Sampler.Source read = builder -> TaskStacks.feed(process.asyncSnapshot(mode), builder);
            return stopper == null ? read : new StoppedSamples(stopper, image, StoppedSamples.RunStatesBeforeStop.NOT_NEEDED,
                    (runStates, builder) -> {
                        read.sampleInto(builder);
                        return StoppedSamples.AfterResume.NOTHING;
                    });
        }
        if (stopper == null) {
            return builder -> process.sample(walk, builder);
        }
        StoppedSamples.RunStatesBeforeStop runStates = cpuState() ? StoppedSamples.RunStatesBeforeStop.READ
                : StoppedSamples.RunStatesBeforeStop.NOT_NEEDED;
        if (options.cFrames) {
            NativeSamples cFrames = new NativeSamples(image, memory, process,
                    options.internalFrames ? InternalFrames.SHOWN : InternalFrames.HIDDEN, stopper);
            return new StoppedSamples(stopper, image, runStates, (states, builder) -> {
                CFramesVisitor sample = cFrames.around(builder);
                process.sample(walk, states, sample);
                return () -> cFrames.afterResume(sample);
            });
        }
        // Without C frames (read from the registers of the stop), a thread caught in the middle of a call
        // may run on a moment to be read whole.
        process.stoppedForEachWalk(turn -> StoppedSamples.runOnAMoment(stopper, turn));
        return new StoppedSamples(stopper, image, runStates, (states, builder) -> {
            process.sample(walk, states, builder);
            return StoppedSamples.AfterResume.NOTHING;
        });
    }

    private SnapshotOptions walkOptions() {
        return SnapshotOptions.of(SnapshotOptions.Threads.all(options.allThreads)).withNativeFrames(options.nativeFrames)
                .withGcFrames(!options.noGc).withCpuState(cpuState()).withOpcodes(options.opcodes);
    }

    /** Says that sampling began, once Ctrl-C would keep what it collects. */
    private void started(int unsampledThreads) {
        // Plain concatenation: a formatter or BigDecimal would cost the first sample milliseconds to set up.
        String until = durationNanos <= 0 ? "until it exits" : "for " + seconds(Math.round(durationNanos / 1e6)) + " s";
        synchronized (err) {
            err.println("Sampling process " + process.pid() + " (CPython " + process.version() + ") at " + options.rate + " "
                    + until + (output.ownsTerminal() ? "; q stops and leaves the last table." : "; Ctrl-C stops and writes the profile."));
            if (unsampledThreads > 0) {
                err.println("Note: only its main thread is sampled; " + unsampledThreads + " other Python thread"
                        + (unsampledThreads == 1 ? " is" : "s are") + " not (-a samples every thread).");
            }
            err.flush();
        }
    }

    /** {@code millis} as seconds without trailing zeros: 50 gives "0.05", 2000 gives "2". */
    static String seconds(long millis) {
        String fraction = Long.toString(1000 + millis % 1000).substring(1);
        int end = fraction.length();
        while (end > 0 && fraction.charAt(end - 1) == '0') {
            end--;
        }
        return millis / 1000 + (end == 0 ? "" : "." + fraction.substring(0, end));
    }

    private void summary(SamplingStats stats, boolean interrupted, boolean exited) {
        // Built whole, then printed at once: with --subprocesses, several sessions end together.
        java.io.StringWriter text = new java.io.StringWriter();
        PrintWriter to = new PrintWriter(text);
        double seconds = stats.elapsedNanos() / 1e9;
        if (interrupted) {
            to.println("Interrupted by user.");
        } else if (exited) {
            to.printf("Process %d exited.%n", process.pid());
        }
        to.printf(Locale.ROOT, "Captured %d sample%s in %.2f seconds (%d tick%s)%s%n", stats.samples(),
                stats.samples() == 1 ? "" : "s", seconds, stats.ticks(), stats.ticks() == 1 ? "" : "s",
                options.subprocesses ? " from process %d".formatted(process.pid()) : "");
        to.printf(Locale.ROOT, "Sample rate: %.2f ticks/sec (requested %s)%n", stats.achievedRate(), options.rate);
        to.printf(Locale.ROOT, "Error rate: %.2f%%", stats.errorRate() * 100);
        if (stats.errors().total() > 0) {
            to.printf(Locale.ROOT, " (%d stack%s not read whole: %s)", stats.errors().total(),
                    stats.errors().total() == 1 ? "" : "s", stats.errors().describe());
        }
        to.println();
        if (stats.missed() > 0) {
            long expected = stats.ticks() + stats.missed();
            to.printf(Locale.ROOT, "Warning: missed %d samples from the expected total of %d (%.2f%%)%n",
                    stats.missed(), expected, 100.0 * stats.missed() / expected);
        }
        to.flush();
        synchronized (err) {
            err.print(text);
            err.flush();
        }
    }

    /** Live statistics, progress and streamed windows. */
    private final class Listener implements SamplerListener {
        /**
         * Only for a process that was running already: one Remora starts (run, a new child) writes to
         * the same terminal, and its lines would land on the end of the redrawn one.
         */
        private final boolean progress = firstTick == FirstTick.AFTER_WARM_UP && System.console() != null
                && System.console().isTerminal();
        /** A live line was drawn, so the summary must start on a line of its own. */
        boolean drewLine;

        @Override
        public void tick(Profile profile, SamplerProgress live) {
            naming.nameNewThreads(profile);
            output.progress(live);
            if (!output.ownsTerminal() && (options.realtimeStats || progress)) {
                err.printf(Locale.ROOT, "\r\033[KSamples: %d  rate: %.1f Hz  last call: %.1f µs  errors: %.2f%%  missed: %d",
                        live.samples(), live.rate(), live.recentCallNanos() / 1e3, live.errorPercent(), live.missed());
                if (!options.realtimeStats) {
                    err.print("  (Ctrl-C to stop)");
                }
                err.flush();
                drewLine = true;
            }
        }

        @Override
        public void window(Profile profile, int from, int to) {
            output.window(profile, from, to);
        }
    }
}
