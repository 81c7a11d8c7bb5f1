package dev.remora.app.cli;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.app.bench.BenchApi;
import dev.remora.app.bench.BenchReport;
import dev.remora.app.bench.BenchResult;
import dev.remora.app.bench.BenchSide;
import dev.remora.app.bench.CpythonBench;
import dev.remora.app.bench.RemoraBenchLoop;
import dev.remora.app.bench.ThreadScope;
import dev.remora.app.bench.Workload;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.walk.PythonProcess;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code remora bench}: how fast Remora's unwinder walks a target, optionally side by side with
 * CPython's own unwinder on the same target in the same run.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Measure the unwinder's speed against a workload (or a running --pid), optionally beside CPython's own.")
public final class BenchCommand implements Callable<Integer> {

    enum Format { text, json }

    /** Compared runs take turns of about this long. */
    private static final double SLICE_SECONDS = 0.5;
    /** Each unwinder runs this long, uncounted, before it is measured: a sampler's steady state is what counts. */
    private static final long WARM_UP_NANOS = 500_000_000L;

    @Spec
    CommandSpec spec;

    @Option(names = {"-c", "--code"}, paramLabel = "basic|deep_static|threads|asyncio",
            description = "The workload to start: ${COMPLETION-CANDIDATES} (default: basic; asyncio with --api async or awaited).")
    Workload workload;

    @Option(names = {"-d", "--duration"}, defaultValue = "10", paramLabel = "SECONDS", description = "Seconds per unwinder (default: 10).")
    double seconds;

    @Option(names = "--threads", defaultValue = "all", paramLabel = "all|main|only_active", description = "Threads read per call (default: all).")
    ThreadScope threads;

    @Option(names = "--api", defaultValue = "stack", paramLabel = "stack|async|awaited",
            description = "What each call reads: every thread's stack, the running asyncio task chains, or all tasks "
                    + "with their awaiters (default: stack).")
    BenchApi api;

    @Mixin
    BackendOption backend;

    @Option(names = "--python", paramLabel = "EXE", description = "The Python to run the workload with (default: the newest supported one found).")
    Path python;

    @Option(names = "--pid", paramLabel = "PID", description = "Measure against this running process instead of starting a workload.")
    Integer pid;

    @Option(names = "--compare-cpython", description = "Also run CPython 3.15's own unwinder on the same target and print the ratio.")
    boolean compareCpython;

    @Option(names = "--cpython", paramLabel = "EXE",
            description = "The python3.15 whose unwinder to compare with (default: the workload's Python when it is 3.15, else one found).")
    Path cpython;

    @Option(names = "--frame-marker", description = "CPython 3.15+: let Remora keep the target's last_profiled_frame "
            + "marker (a write into the target), as CPython's own unwinder does; off by default.")
    boolean frameMarker;

    @Option(names = "--format", defaultValue = "text", paramLabel = "text|json", description = "Output format (default: text).")
    Format format;

    @Override
    public Integer call() throws Exception {
        if (!(seconds > 0)) {
            throw new UserError("--duration must be positive", UserErrorHandler.EXIT_USAGE);
        }
        backend.validate();
        long nanos = Math.round(seconds * 1e9);
        if (pid != null) {
            try (TargetPorts ports = backend.open(pid)) {
                PythonProcess process = PythonProcess.attach(ports.image(), ports.memory());
                return measure(process, "pid " + pid, Optional.ofNullable(cpython), nanos);
            }
        }
        Workload code = workload != null ? workload : api.readsTasks() ? Workload.asyncio : Workload.basic;
        if (api.readsTasks() && !code.runsTasks()) {
            throw new UserError("--api %s reads asyncio tasks and the %s workload runs none; use --code asyncio"
                    .formatted(api, code), UserErrorHandler.EXIT_USAGE);
        }
        Path exe = python != null ? PythonFinder.check(python) : PythonFinder.find().executable();
        try (LaunchedTarget target = LaunchedTarget.start(List.of(exe.toString(), "-c", code.source()), LaunchedTarget.Output.DISCARDED, backend)) {
            PythonProcess process = target.attach(backend);
            Thread.sleep(1000); // let the workload reach its steady shape
            return measure(process, code.name(), Optional.ofNullable(cpython).or(() -> Optional.of(exe)), nanos);
        }
    }

    /**
     * Gives both unwinders the target in turns, so that a workload whose shape drifts (threads come
     * and go) drifts under both alike; who goes first alternates, so a steady drift favours neither.
     */
    private static void interleave(BenchSide a, BenchSide b, int rounds, long slice) throws Exception {
        for (int round = 0; round < rounds; round++) {
            BenchSide first = round % 2 == 0 ? a : b;
            first.measure(slice);
            (first == a ? b : a).measure(slice);
        }
    }

    private static Path requireCpython315(Path python) {
        if (!PythonFinder.isCpython315(python)) {
            throw new UserError("--cpython %s is not a CPython 3.15".formatted(python), UserErrorHandler.EXIT_USAGE);
        }
        return python;
    }

    private int measure(PythonProcess process, String measured, Optional<Path> cpythonCandidate, long nanos) throws Exception {
        if (frameMarker) {
            process.useFrameMarkers();
        }
        if (api.readsTasks()) {
            process.asyncSnapshot(AsyncMode.ALL); // a target without asyncio is an error up front, not a run of failures
        }
        Optional<Path> reference = Optional.empty();
        if (compareCpython) {
            reference = Optional.of(cpython != null ? requireCpython315(cpython)
                    : cpythonCandidate.filter(PythonFinder::isCpython315).orElseGet(PythonFinder::findCpython315));
        }
        int rounds = (int) Math.max(1, Math.ceil(seconds / SLICE_SECONDS));
        BenchResult ours;
        Optional<BenchResult> theirs = Optional.empty();
        try (RemoraBenchLoop remora = new RemoraBenchLoop(process, threads, api, reference.isPresent())) {
            if (reference.isEmpty()) {
                remora.warmUp(WARM_UP_NANOS);
                remora.measure(nanos);
            } else {
                try (CpythonBench other = CpythonBench.start(reference.get(), process.pid(), threads, api, frameMarker)) {
                    remora.warmUp(WARM_UP_NANOS);
                    other.warmUp(WARM_UP_NANOS);
                    interleave(remora, other, rounds, nanos / rounds);
                    theirs = Optional.of(other.result());
                }
            }
            ours = remora.result();
        }
        BenchReport.Setup setup = new BenchReport.Setup(measured, api, process.version().toString(),
                process.pid(), process.backendName(), threads, seconds, theirs.isPresent() ? rounds : 1, frameMarker);
        switch (format) {
            case text -> BenchReport.text(setup, ours, theirs, spec.commandLine().getOut());
            case json -> BenchReport.json(setup, ours, theirs, spec.commandLine().getOut());
        }
        return 0;
    }
}
