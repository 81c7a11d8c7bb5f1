package dev.remora.app.cli;

import dev.remora.app.output.profile.binary.BinaryCapture;
import dev.remora.app.output.profile.binary.BinaryWriter;
import dev.remora.app.output.profile.collapsed.CollapsedWriter;
import dev.remora.app.output.dump.SourceLines;
import dev.remora.app.output.profile.flamegraph.FlamegraphWriter;
import dev.remora.app.output.profile.heatmap.HeatmapWriter;
import dev.remora.app.output.profile.gecko.GeckoWriter;
import dev.remora.app.output.profile.jsonl.JsonlStream;
import dev.remora.app.output.profile.pprof.PprofWriter;
import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.app.output.profile.pstats.PstatsTable;
import dev.remora.app.output.profile.pstats.PstatsWriter;
import dev.remora.app.output.profile.SampleStream;
import dev.remora.app.output.profile.speedscope.SpeedscopeWriter;
import dev.remora.domain.profile.Profile;
import dev.remora.ports.ProcessImage;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Where and how a profile is written. The file is checked before sampling starts, so a bad path fails
 * fast; if writing still fails at the end, the profile goes to a temporary file instead of being lost.
 */
final class ProfileOutput implements ProfileSink {

    private static final long MAX_SOURCE = 16 << 20;

    private final OutputFormat format;
    private final OutputOptions options;
    /** The capture features a binary capture records; -1 when they are not known (a replay). */
    private final int features;
    private final Optional<Path> file;
    private final PrintWriter out;
    private final PrintWriter err;
    /** The profile a differential flamegraph compares with; null for other formats. */
    private final Profile baseline;
    private SampleStream stream;
    /** The heatmap's sources, read while the target runs; null until a session says where. */
    private SourceLines sources;
    private int framesRead;
    private IOException streamFailure;

    private ProfileOutput(OutputFormat format, OutputOptions options, int features, Optional<Path> file, PrintWriter out,
                          PrintWriter err) {
        this.format = format;
        this.options = options;
        this.features = features;
        this.baseline = format == OutputFormat.diff_flamegraph ? BaselineProfile.read(options.format.diffBaseline) : null;
        this.file = file;
        this.out = out;
        this.err = err;
    }

    static ProfileOutput prepare(ProfileOptions options, int pid, PrintWriter out, PrintWriter err) throws IOException {
        options.validate();
        return prepare(options.outputs, options.captureFeatures(), Optional.ofNullable(options.outputs.output), pid, out, err);
    }

    /** The output of a profile read back from a capture ({@code replay}). */
    static ProfileOutput prepareForReplay(OutputOptions options, int pid, PrintWriter out, PrintWriter err) throws IOException {
        options.validate();
        return prepare(options, -1, Optional.ofNullable(options.output), pid, out, err);
    }

    /**
     * The output of one process of a tree ({@code --subprocesses}): a file named with {@code -o}
     * gets the process's pid before its extension ({@code profile.html} becomes {@code profile_PID.html}).
     */
    static ProfileOutput prepareForProcessOfTree(ProfileOptions options, int pid, PrintWriter out, PrintWriter err)
            throws IOException {
        options.validate();
        Optional<Path> named = Optional.ofNullable(options.outputs.output)
                .map(path -> Files.isDirectory(path) ? path : withPid(path, pid));
        return prepare(options.outputs, options.captureFeatures(), named, pid, out, err);
    }

    private static Path withPid(Path path, int pid) {
        String name = path.getFileName().toString();
        int dot = name.indexOf('.', 1);
        String named = dot < 0 ? name + "_" + pid : name.substring(0, dot) + "_" + pid + name.substring(dot);
        return path.resolveSibling(named);
    }

    private static ProfileOutput prepare(OutputOptions options, int features, Optional<Path> named, int pid, PrintWriter out,
                                         PrintWriter err) throws IOException {
        OutputFormat format = options.format();
        Optional<Path> file = named;
        if (file.isPresent() && Files.isDirectory(file.get())) {
            file = Optional.of(file.get().resolve(format.defaultFileName(pid)));
        }
        if (file.isEmpty() && format != OutputFormat.pstats) {
            file = Optional.of(Path.of(format.defaultFileName(pid)));
        }
        if (file.isPresent()) {
            Path parent = file.get().toAbsolutePath().getParent();
            if (parent == null || !Files.isDirectory(parent) || !Files.isWritable(parent)) {
                throw new UserError("cannot write %s: %s is not a writable directory".formatted(file.get(), parent),
                        UserErrorHandler.EXIT_USAGE);
            }
        }
        return new ProfileOutput(format, options, features, file, out, err);
    }

    @Override
    public void sourcesFrom(ProcessImage image) {
        if (format == OutputFormat.heatmap) {
            sources = new SourceLines(image);
        }
    }

    /** Reads the files of frames met since the last window, while the target can still be read. */
    private void readSources(Profile profile) {
        int frames = profile.frames().size();
        for (; framesRead < frames; framesRead++) {
            sources.lines(profile.frames().get(framesRead).file());
        }
    }

    /**
     * A file as the target saw it, else as this machine has it: only Python source, since a replayed
     * capture may name any path and the page is meant to be shared.
     */
    private Optional<List<String>> source(String file) {
        Optional<List<String>> seen = sources == null ? Optional.empty() : sources.lines(file);
        if (seen.isPresent() || file.startsWith("<") || !file.endsWith(".py")) {
            return seen;
        }
        try {
            Path path = Path.of(file);
            return Files.isRegularFile(path) && Files.size(path) < MAX_SOURCE ? Optional.of(Files.readAllLines(path))
                    : Optional.empty();
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public void window(Profile profile, int from, int to) {
        if (sources != null) {
            readSources(profile);
        }
        if (format != OutputFormat.jsonl && format != OutputFormat.binary || streamFailure != null) {
            return;
        }
        try {
            // Opened with the first samples, so a run that never samples leaves no empty file behind.
            if (stream == null) {
                stream = format == OutputFormat.binary ? new BinaryCapture(file.orElseThrow(), options.zstd(), features)
                        : new JsonlStream(new BufferedOutputStream(Files.newOutputStream(file.orElseThrow())));
            }
            stream.window(profile, from, to);
        } catch (IOException e) {
            streamFailure = e;
            closeQuietly();
            err.printf("remora: cannot write %s: %s (the profile will be written at the end)%n", file.orElseThrow(), why(e));
        }
    }

    private void closeQuietly() {
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException ignored) {
                // Already failing; the profile is written again at the end.
            }
        }
    }

    @Override
    public void write(Profile profile) throws IOException {
        if (stream != null && streamFailure == null) {
            try (SampleStream s = stream) {
                s.finish(profile);
                err.printf("Profile written to %s%n", file.orElseThrow());
                return;
            } catch (IOException e) {
                // The whole profile is still here: written again below, or rescued to a temporary file.
                err.printf("remora: cannot finish %s: %s%n", file.orElseThrow(), why(e));
            }
        }
        if (file.isEmpty()) {
            synchronized (out) { // several processes' tables, with --subprocesses: one after the other
                new PstatsTable(options.sortKey(), options.limit, !options.noSummary, options.pstatsRows(), options.tableStyle())
                        .print(profile, out);
                out.flush();
            }
            return;
        }
        ProfileWriter writer = writer();
        try {
            writeTo(file.get(), writer, profile);
            err.printf("Profile written to %s%n", file.get());
            if (options.browser) {
                BrowserOpener.fromEnvironment().open(file.get(), err);
            }
        } catch (IOException e) {
            Path rescue = Files.createTempFile("remora-" + profile.info().pid() + "-", "." + format.extension());
            writeTo(rescue, writer, profile);
            throw new UserError("cannot write %s (%s); the profile was saved to %s instead".formatted(file.get(), why(e), rescue),
                    UserErrorHandler.EXIT_FAILURE);
        }
    }

    /** Why a write failed, in words: a file system's exception names only the file. */
    static String why(IOException e) {
        return switch (e) {
            case java.nio.file.AccessDeniedException a -> "permission denied";
            case java.nio.file.NoSuchFileException n -> "no such file or directory";
            case java.nio.file.FileSystemException f when f.getReason() != null -> f.getReason();
            default -> e.getMessage();
        };
    }

    private ProfileWriter writer() {
        return switch (format) {
            case pstats -> new PstatsWriter(options.pstatsRows());
            case collapsed -> new CollapsedWriter();
            case flamegraph -> new FlamegraphWriter();
            case heatmap -> new HeatmapWriter(this::source);
            case diff_flamegraph -> new FlamegraphWriter(options.format.diffBaseline.getFileName().toString(), baseline);
            case speedscope -> new SpeedscopeWriter();
            case gecko -> new GeckoWriter();
            case pprof -> new PprofWriter();
            case binary -> new BinaryWriter(options.zstd());
            case jsonl -> (profile, o) -> {
                try (JsonlStream s = new JsonlStream(o)) {
                    s.window(profile, 0, profile.samples().size());
                    s.finish(profile);
                }
            };
        };
    }

    private static void writeTo(Path path, ProfileWriter writer, Profile profile) throws IOException {
        try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(path))) {
            writer.write(profile, o);
        }
    }
}
