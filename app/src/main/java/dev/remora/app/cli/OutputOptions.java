package dev.remora.app.cli;

import dev.remora.app.output.profile.pstats.PstatsRows;
import dev.remora.app.output.profile.pstats.TableStyle;
import dev.remora.app.output.profile.pstats.PstatsTable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Supplier;

/** Which profile format to write and where: shared by {@code run}, {@code attach} and {@code replay}. */
public final class OutputOptions {

    @ArgGroup(exclusive = true)
    FormatChoice format = new FormatChoice();

    @Option(names = {"-o", "--output"}, paramLabel = "FILE",
            description = "Where to write the profile (default: pstats table on stdout; other formats FORMAT_PID.EXT).")
    Path output;

    @Option(names = "--sort", paramLabel = "KEY", defaultValue = "nsamples",
            description = "pstats table order: nsamples, tottime, cumtime, sample-pct, cumul-pct, nsamples-cumul, name.")
    String sort;

    @Option(names = {"-l", "--limit"}, paramLabel = "N", defaultValue = "15", description = "pstats table rows (default: 15).")
    int limit;

    @Option(names = "--no-summary", description = "Leave the summary section out of the pstats table.")
    boolean noSummary;

    @Option(names = "--pstats-lines", description = "pstats: a row per function and line executed, as CPython's "
            + "sampling profiler gives them, instead of one per function.")
    boolean pstatsLines;

    @Option(names = "--cpython-table", description = "pstats: the table exactly as CPython 3.15's sampling profiler "
            + "prints it (a row per line executed, each time column in its own unit, its summary's wording), to compare the two.")
    boolean cpythonTable;

    @Option(names = "--browser", description = "Open the HTML output (--flamegraph) with the desktop's opener (xdg-open).")
    boolean browser;

    @Option(names = "--compression", paramLabel = "auto|zstd|none", defaultValue = "auto",
            description = "With --binary: compress the samples with zstd (auto, the default, means zstd).")
    String compression;

    /** Exactly one output format; pstats when none is chosen. */
    static final class FormatChoice {
        @Option(names = "--pstats", description = "pstats table on stdout, or a marshal pstats file with -o (default).")
        boolean pstats;
        @Option(names = "--collapsed", description = "Collapsed stacks, one line per stack (flamegraph.pl, speedscope).")
        boolean collapsed;
        @Option(names = "--flamegraph", description = "A self-contained interactive HTML flamegraph.")
        boolean flamegraph;
        @Option(names = "--speedscope", description = "speedscope JSON. Its timelines keep every sample in memory "
                + "(about 22 bytes each); the other formats keep counts.")
        boolean speedscope;
        @Option(names = "--gecko", description = "Firefox Profiler (gecko) JSON. Its timelines keep every sample in "
                + "memory (about 22 bytes each); the other formats keep counts.")
        boolean gecko;
        @Option(names = "--pprof", description = "pprof: gzipped profile.proto.")
        boolean pprof;
        @Option(names = "--jsonl", description = "JSON lines, one record per sample window, written as sampling goes.")
        boolean jsonl;
        @Option(names = "--diff-flamegraph", paramLabel = "BASELINE", description = "A flamegraph coloured by how each"
                + " frame's share changed since BASELINE (a binary capture or collapsed stacks): red grew, blue shrank.")
        Path diffBaseline;
        @Option(names = "--heatmap", description = "A self-contained HTML page of the sampled files' source, each line"
                + " shaded by its samples.")
        boolean heatmap;
        @Option(names = "--binary", description = "Every sample in CPython 3.15's binary format (written as sampling goes;"
                + " remora replay and python3.15 -m profiling.sampling replay read it).")
        boolean binary;

        OutputFormat chosen() {
            if (collapsed) return OutputFormat.collapsed;
            if (flamegraph) return OutputFormat.flamegraph;
            if (speedscope) return OutputFormat.speedscope;
            if (gecko) return OutputFormat.gecko;
            if (pprof) return OutputFormat.pprof;
            if (jsonl) return OutputFormat.jsonl;
            if (binary) return OutputFormat.binary;
            if (heatmap) return OutputFormat.heatmap;
            if (diffBaseline != null) return OutputFormat.diff_flamegraph;
            return OutputFormat.pstats;
        }
    }

    OutputFormat format() {
        return format.chosen();
    }

    /** Checks what can be wrong of these options alone. */
    void validate() {
        sortKey();
        // Loads zstd only for a binary capture, before anything is attached.
        if (format() == OutputFormat.binary) {
            zstd();
        } else {
            compressionWanted();
        }
        if (browser && format() != OutputFormat.flamegraph && format() != OutputFormat.diff_flamegraph
                && format() != OutputFormat.heatmap) {
            throw new UserError("--browser opens HTML outputs: it goes with --flamegraph, --diff-flamegraph or --heatmap",
                    UserErrorHandler.EXIT_USAGE);
        }
    }

    /**
     * Whether binary captures compress their samples: as asked, when zstd's native library loads here.
     * Where it cannot (no platform build, a temporary directory mounted noexec), auto captures without
     * compression and an explicit zstd fails at once, not from the sampling thread.
     */
    boolean zstd() {
        if (!compressionWanted()) {
            return false;
        }
        Optional<String> failure = ZSTD_FAILURE.get();
        if (failure.isPresent() && compression.equals("zstd")) {
            throw new UserError("--compression zstd: zstd cannot load here: " + failure.get(), UserErrorHandler.EXIT_FAILURE);
        }
        return failure.isEmpty();
    }

    private boolean compressionWanted() {
        return switch (compression) {
            case "auto", "zstd" -> true;
            case "none" -> false;
            default -> throw new UserError("unknown --compression '%s' (auto, zstd, none)".formatted(compression),
                    UserErrorHandler.EXIT_USAGE);
        };
    }

    /** Why zstd's native library does not load, once asked; empty when it does. */
    private static final Supplier<Optional<String>> ZSTD_FAILURE = new Supplier<>() {
        private Optional<String> failure;

        @Override
        public synchronized Optional<String> get() {
            if (failure == null) {
                try {
                    com.github.luben.zstd.util.Native.load();
                    failure = Optional.empty();
                } catch (LinkageError | RuntimeException e) {
                    failure = Optional.of(String.valueOf(e.getMessage()).lines().findFirst().orElse(e.getClass().getName()));
                }
            }
            return failure;
        }
    };

    PstatsRows pstatsRows() {
        return pstatsLines || cpythonTable ? PstatsRows.EXECUTING_LINES : PstatsRows.FUNCTIONS;
    }

    TableStyle tableStyle() {
        return cpythonTable ? TableStyle.CPYTHON : TableStyle.REMORA;
    }

    PstatsTable.SortKey sortKey() {
        try {
            return PstatsTable.SortKey.fromOption(sort);
        } catch (IllegalArgumentException e) {
            throw new UserError("unknown --sort key '%s' (nsamples, tottime, cumtime, sample-pct, cumul-pct, nsamples-cumul, name)"
                    .formatted(sort), UserErrorHandler.EXIT_USAGE);
        }
    }
}
