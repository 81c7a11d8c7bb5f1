package dev.remora.app.output.profile.pprof;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs Go's {@code go tool pprof}, the reference reader of pprof files, after making sure
 * scripts/provision-go.sh has installed it. Go runs offline and keeps its state in a scratch
 * directory, so the test touches neither the network nor the user's home.
 */
public final class GoPprof {

    private static final long TIMEOUT_SECONDS = 600;

    private final Path go;
    private final Path home;

    private GoPprof(Path go, Path home) {
        this.go = go;
        this.home = home;
    }

    /** Provisions Go (failing, never skipping, when that fails) and returns a runner using it. */
    public static GoPprof provision(Path scratch) {
        Path script = repositoryRoot().resolve("scripts/provision-go.sh");
        Result result = run(List.of(script.toString()), Map.of(), scratch);
        if (result.exitCode() != 0) {
            throw new AssertionError("scripts/provision-go.sh failed (exit " + result.exitCode() + "):\n"
                    + result.stderr());
        }
        Path go = Path.of(result.stdout().strip());
        if (!Files.isExecutable(go)) {
            throw new AssertionError("scripts/provision-go.sh printed no executable go: " + result.stdout());
        }
        return new GoPprof(go, scratch);
    }

    /** {@code go tool pprof ARGS...}; fails the test unless pprof exits with 0. */
    public String pprof(String... args) {
        List<String> command = new ArrayList<>(List.of(go.toString(), "tool", "pprof"));
        command.addAll(List.of(args));
        Result result = run(command, Map.of(
                "HOME", home.toString(),
                "GOCACHE", home.resolve("gocache").toString(),
                "GOPATH", home.resolve("gopath").toString(),
                "GOFLAGS", "",
                "GOTOOLCHAIN", "local",
                "GOPROXY", "off",
                "GOTELEMETRY", "off",
                "PPROF_TMPDIR", home.resolve("pprof").toString()), home);
        if (result.exitCode() != 0) {
            throw new AssertionError(String.join(" ", command) + " failed (exit " + result.exitCode() + "):\n"
                    + result.stderr());
        }
        return result.stdout();
    }

    private record Result(int exitCode, String stdout, String stderr) {}

    private static Result run(List<String> command, Map<String, String> env, Path dir) {
        try {
            Path out = Files.createTempFile(dir, "out", ".txt");
            Path err = Files.createTempFile(dir, "err", ".txt");
            ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
                    .redirectOutput(out.toFile()).redirectError(err.toFile());
            builder.environment().putAll(env);
            Process process = builder.start();
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish in " + TIMEOUT_SECONDS + "s");
            }
            return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                    Files.readString(err, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted running " + command, e);
        }
    }

    /** The checkout's root: the nearest directory above the working directory that has the script. */
    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("scripts/provision-go.sh"))) {
                return dir;
            }
        }
        throw new AssertionError("no scripts/provision-go.sh above " + Path.of("").toAbsolutePath());
    }
}
