package dev.remora.app.output.profile;

import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Real Pythons that read what the writers write: CPython 3.15 (whose profiler defines the formats),
 * from the provisioned targets, and the machine's own python3, an older reader of the same files.
 */
public final class Python implements AutoCloseable {

    private final List<String> command;
    private final Path hostDir;
    private final String seenDir;
    private final Closeable cleanup;

    private Python(List<String> command, Path hostDir, String seenDir, Closeable cleanup) {
        this.command = command;
        this.hostDir = hostDir;
        this.seenDir = seenDir;
        this.cleanup = cleanup;
    }

    /** CPython 3.15 of the provisioned targets; files go through a scratch directory inside its root. */
    public static Python cpython315() {
        TargetInterpreter interpreter = TargetInterpreters.all().stream()
                .filter(t -> t.major() == 3 && t.minor() == 15)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("no CPython 3.15 among the targets: run scripts/provision-targets.sh"));
        ScratchDir dir = ScratchDir.create(interpreter, "remora-profile-");
        return new Python(interpreter.command("-I", "-X", "utf8"), dir.host(), dir.inRoot(), dir::close);
    }

    /** The machine's python3. */
    public static Python host() {
        try {
            Path dir = Files.createTempDirectory("remora-profile-");
            return new Python(List.of("python3", "-I", "-X", "utf8"), dir, dir.toString(), () -> deleteTree(dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Puts a file where this Python can read it; returns the path it sees. */
    public String put(String name, byte[] content) {
        try {
            Files.write(hostPath(name), content);
            return pathSeen(name);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The path this Python sees for a file of its scratch directory. */
    public String pathSeen(String name) {
        return seenDir + "/" + name;
    }

    public Path hostPath(String name) {
        return hostDir.resolve(name);
    }

    @Override
    public void close() throws IOException {
        cleanup.close();
    }

    private static void deleteTree(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    /** Runs {@code python -c script args...}; returns stdout, failing with stderr on a non-zero exit. */
    public String run(String script, String... args) {
        List<String> cmd = new ArrayList<>(command);
        cmd.add("-c");
        cmd.add(script);
        cmd.addAll(List.of(args));
        return exec(cmd, "");
    }

    /** Runs {@code python -m module args...} with {@code stdin}. */
    public String module(String module, String stdin, String... args) {
        List<String> cmd = new ArrayList<>(command);
        cmd.add("-m");
        cmd.add(module);
        cmd.addAll(List.of(args));
        return exec(cmd, stdin);
    }

    private static String exec(List<String> cmd, String stdin) {
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd);
            Map<String, String> env = pb.environment();
            // Plain text whatever the test's terminal: CPython's profiler colours a table unless told not to.
            env.remove("FORCE_COLOR");
            env.put("NO_COLOR", "1");
            env.put("TERM", "dumb");
            Process p = pb.start();
            CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
            CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
            p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            if (!p.waitFor(120, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("timed out: " + cmd);
            }
            String stdout = new String(out.join(), StandardCharsets.UTF_8);
            String stderr = new String(err.join(), StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new IllegalStateException("exit " + p.exitValue() + " from " + cmd.getFirst() + "...:\n" + stderr + stdout);
            }
            return stdout;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
