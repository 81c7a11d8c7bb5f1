package dev.remora.app.cli;

import dev.remora.app.output.profile.binary.BinaryCapture;
import dev.remora.app.profiling.SamplingRate;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.profile.ProfileMode;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.Locale;

/** The sampling and output options shared by {@code run} and {@code attach}, spelled as CPython's profiler spells them. */
public final class ProfileOptions {

    @Option(names = {"-r", "--sampling-rate"}, paramLabel = "RATE", defaultValue = "1khz", converter = RateConverter.class,
            description = "Samples per second: 250, 250hz, 10k, 1.5khz (default: 1khz).")
    SamplingRate rate;

    @Option(names = {"-d", "--duration"}, paramLabel = "SECONDS",
            description = "Stop after this many seconds (default: until the target exits or Ctrl-C).")
    Double durationSeconds;

    @Option(names = {"-a", "--all-threads"}, description = "Sample every thread, not only the main thread.")
    boolean allThreads;

    @Option(names = "--mode", paramLabel = "wall|cpu|gil|exception", defaultValue = "wall", converter = ModeConverter.class,
            description = "wall: all samples; cpu: threads on a CPU; gil: the GIL holder; exception: threads handling an exception.")
    ProfileMode mode;

    @Option(names = "--native", description = "Show calls through C code between Python frames as <native> frames.")
    boolean nativeFrames;

    @Option(names = "--native-frames", description = "With --blocking: each sample's C frames too, merged with its Python"
            + " frames in call order.")
    boolean cFrames;

    @Option(names = "--internal-frames", description = "With --native-frames: keep the interpreter's own C frames (the eval"
            + " loop, call and vectorcall helpers), hidden by default.")
    boolean internalFrames;

    @Option(names = "--no-gc", description = "Do not show <GC> frames for running garbage collections (3.15+).")
    boolean noGc;

    @Option(names = "--opcodes", description = "Count the instructions samples end on; shown in the flamegraph's tooltips.")
    boolean opcodes;

    @Option(names = "--frame-marker", description = "CPython 3.15+: write the thread's last_profiled_frame marker into the "
            + "target so unchanged frames under it are not read again (faster on deep stacks). Off by default: it writes "
            + "to the target's memory, and two profilers doing so at once would mislead each other.")
    boolean frameMarker;

    @Option(names = "--blocking", description = "Stop the target's threads for each sample (ptrace) and let them run on "
            + "after it: every stack exact, at a cost to the target (see the README).")
    boolean blocking;

    @Option(names = "--normal-priority", description = "Wait for each tick at normal priority. By default the sampling "
            + "thread waits at real-time priority where allowed (root or CAP_SYS_NICE), so that a busy CPU does not make "
            + "its ticks late; it catches up at normal priority (see the README for what it costs).")
    boolean normalPriority;

    @Option(names = "--async-aware", description = "Sample asyncio task chains instead of thread stacks (3.14+).")
    boolean asyncAware;

    @Option(names = "--async-mode", paramLabel = "running|all", defaultValue = "running",
            description = "With --async-aware: the running task's chain per thread (default), or every task's.")
    String asyncModeName;

    @Option(names = "--realtime-stats", description = "Print the sampling rate and error rate live on stderr.")
    boolean realtimeStats;

    @Mixin
    OutputOptions outputs = new OutputOptions();

    @Option(names = "--live", description = "A full-screen live view of the functions the target runs (as remora top),"
            + " instead of a profile file.")
    boolean live;

    @Option(names = "--subprocesses", description = "Profile every Python process under the target too, each into its own"
            + " output (FILE_PID.EXT), as they appear.")
    boolean subprocesses;

    @Option(names = "--merge", description = "With --subprocesses: one profile of the whole tree, each process a root frame"
            + " (process PID: command line).")
    boolean merge;

    /** Checks every option that can be wrong, before anything is started or attached. */
    void validate() {
        outputs.validate();
        durationNanos();
        if (asyncAware) {
            asyncMode();
        }
        if (live && (subprocesses || outputs.output != null || format() != OutputFormat.pstats || realtimeStats)) {
            throw new UserError("--live shows the profile on the terminal: it goes without --subprocesses, -o, an output"
                    + " format or --realtime-stats", UserErrorHandler.EXIT_USAGE);
        }
        if (merge && !subprocesses) {
            throw new UserError("--merge goes with --subprocesses", UserErrorHandler.EXIT_USAGE);
        }
        if (subprocesses && blocking) {
            throw new UserError("--subprocesses cannot go with --blocking", UserErrorHandler.EXIT_USAGE);
        }
        if (cFrames && !blocking) {
            throw new UserError("--native-frames needs --blocking: a thread's C frames are read from its registers,"
                    + " which only a stopped thread gives", UserErrorHandler.EXIT_USAGE);
        }
        if (internalFrames && !cFrames) {
            throw new UserError("--internal-frames goes with --native-frames", UserErrorHandler.EXIT_USAGE);
        }
        if (cFrames && asyncAware) {
            throw new UserError("--native-frames cannot go with --async-aware", UserErrorHandler.EXIT_USAGE);
        }
        if (opcodes && (format() != OutputFormat.flamegraph && format() != OutputFormat.binary || asyncAware)) {
            throw new UserError("--opcodes goes with --flamegraph or --binary (and not with --async-aware)", UserErrorHandler.EXIT_USAGE);
        }
    }

    /** The async mode, after checking the options that cannot go with it, as CPython's profiler does. */
    AsyncMode asyncMode() {
        if (asyncAware && (nativeFrames || noGc || allThreads || mode != ProfileMode.WALL)) {
            throw new UserError("--async-aware cannot be combined with --native, --no-gc, -a or --mode other than wall",
                    UserErrorHandler.EXIT_USAGE);
        }
        return AsyncModeOption.parse(asyncModeName);
    }

    OutputFormat format() {
        return outputs.format();
    }

    /** The binary format's capture features of these options. */
    int captureFeatures() {
        return BinaryCapture.features(allThreads, nativeFrames, !noGc, opcodes);
    }

    long durationNanos() {
        if (durationSeconds == null) {
            return 0;
        }
        if (!(durationSeconds > 0)) {
            throw new UserError("--duration must be positive: " + durationSeconds, UserErrorHandler.EXIT_USAGE);
        }
        return Math.round(durationSeconds * 1e9);
    }

    static final class RateConverter implements picocli.CommandLine.ITypeConverter<SamplingRate> {
        @Override
        public SamplingRate convert(String value) {
            try {
                return SamplingRate.parse(value);
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class ModeConverter implements picocli.CommandLine.ITypeConverter<ProfileMode> {
        @Override
        public ProfileMode convert(String value) {
            try {
                return ProfileMode.valueOf(value.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new picocli.CommandLine.TypeConversionException("unknown mode '%s' (wall, cpu, gil, exception)".formatted(value));
            }
        }
    }
}
