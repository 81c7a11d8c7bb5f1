package dev.remora.app.cli;

import dev.remora.domain.offsets.VersionLayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Finds a Python that Remora can read, for {@code remora run} without {@code --python}: the one the
 * user would get by typing {@code python3}, as py-spy's {@code record -- python3} and CPython's own
 * profiler do (an active virtual environment's, then {@code python3} and {@code python} on PATH,
 * pyenv's shims resolved to the version they select); failing those, the newest supported one found.
 */
final class PythonFinder {

    /** The supported versions' own names, newest first. */
    private static final List<String> VERSIONED = VersionLayout.supportedNames().reversed().stream()
            .map(name -> "python" + name).toList();
    private static final List<String> GENERIC = List.of("python3", "python");

    /** A Python found, and how: said at start, so that the user sees which Python runs the script. */
    record Found(Path executable, String how) {}

    private PythonFinder() {}

    static Found find() {
        return find(System.getenv());
    }

    static Found find(Map<String, String> env) {
        for (Candidate candidate : candidates(env)) {
            Optional<Answer> answer = answer(candidate.path());
            if (answer.isPresent() && answer.get().supported()) {
                return new Found(answer.get().executable().filter(Files::isExecutable).orElse(candidate.path()), candidate.how());
            }
        }
        throw new UserError("no CPython %s found on PATH or under ~/.pyenv; name one with --python EXE"
                .formatted(VersionLayout.supportedVersions()),
                UserErrorHandler.EXIT_FAILURE);
    }

    /** Checks a user's choice, so a wrong one fails with a clear message instead of after launch. */
    static Path check(Path python) {
        if (!Files.isExecutable(python)) {
            throw new UserError("--python %s is not an executable file".formatted(python), UserErrorHandler.EXIT_USAGE);
        }
        if (!supported(python)) {
            throw new UserError("--python %s is not a supported CPython (%s)".formatted(python, VersionLayout.supportedVersions()),
                    UserErrorHandler.EXIT_USAGE);
        }
        return python;
    }

    /** A python3.15 whose {@code _remote_debugging} can serve as the reference unwinder. */
    static Path findCpython315() {
        return candidates(System.getenv()).stream().map(Candidate::path).filter(PythonFinder::isCpython315).findFirst().orElseThrow(() -> new UserError(
                "--compare-cpython needs a CPython 3.15; name one with --cpython EXE", UserErrorHandler.EXIT_FAILURE));
    }

    static boolean isCpython315(Path python) {
        return Files.isExecutable(python) && answer(python).filter(a -> a.line().startsWith("cpython 3 15 ")).isPresent();
    }

    /** A place to look for a Python, and how the user would have chosen it. */
    private record Candidate(Path path, String how) {}

    private static List<Candidate> candidates(Map<String, String> env) {
        List<Candidate> found = new ArrayList<>();
        String venv = env.getOrDefault("VIRTUAL_ENV", "");
        if (!venv.isEmpty()) {
            for (String name : GENERIC) {
                found.add(new Candidate(Path.of(venv, "bin", name), "the active virtual environment's"));
            }
        }
        String[] path = env.getOrDefault("PATH", "").split(":");
        for (String name : GENERIC) {
            onPath(path, name).forEach(p -> found.add(new Candidate(p, name + " on PATH")));
        }
        for (String name : VERSIONED) {
            // Not pyenv's shims here: a shim of a version pyenv does not select fails to run.
            onPath(path, name).stream().filter(p -> !p.toString().contains("/.pyenv/shims/"))
                    .forEach(p -> found.add(new Candidate(p, "the newest supported on PATH")));
        }
        Path pyenv = Path.of(env.getOrDefault("PYENV_ROOT", System.getProperty("user.home") + "/.pyenv"), "versions");
        if (Files.isDirectory(pyenv)) {
            try (Stream<Path> versions = Files.list(pyenv)) {
                versions.filter(v -> v.getFileName().toString().matches("\\d+\\.\\d+\\.\\d+"))
                        .filter(v -> supportedMinor(v.getFileName().toString()))
                        .sorted(Comparator.comparing((Path v) -> v.getFileName().toString()).reversed())
                        .map(v -> v.resolve("bin/python3")).filter(Files::isExecutable)
                        .forEach(p -> found.add(new Candidate(p, "the newest supported under pyenv")));
            } catch (IOException ignored) {
                // No pyenv versions to offer.
            }
        }
        return found;
    }

    /** Executables named {@code name} in PATH's directories, in order. */
    private static List<Path> onPath(String[] path, String name) {
        List<Path> found = new ArrayList<>();
        for (String dir : path) {
            if (!dir.isEmpty()) {
                Path p = Path.of(dir, name);
                if (Files.isExecutable(p)) {
                    found.add(p);
                }
            }
        }
        return found;
    }

    private static boolean supported(Path python) {
        return answer(python).filter(Answer::supported).isPresent();
    }

    /** Whether "3.12" or "3.12.1" names a supported minor version. */
    private static boolean supportedMinor(String version) {
        String[] parts = version.split("\\.");
        return VersionLayout.supportedNames().contains(parts[0] + "." + parts[1]);
    }

    /**
     * What the interpreter says of itself: "IMPLEMENTATION MAJOR MINOR GIL" and, on the next line, its
     * {@code sys.executable} (a shim's is the Python it selected; a virtual environment's, its own).
     */
    private record Answer(String line, Optional<Path> executable) {
        boolean supported() {
            return line.matches("cpython \\d+ \\d+ 1") && supportedMinor(line.split(" ")[1] + "." + line.split(" ")[2]);
        }
    }

    private static Optional<Answer> answer(Path python) {
        try {
            Process p = new ProcessBuilder(python.toString(), "-c",
                    "import sys; print(sys.implementation.name, sys.version_info[0], sys.version_info[1], "
                            + "int(bool(getattr(sys, '_is_gil_enabled', lambda: True)()))); print(sys.executable)")
                    .redirectErrorStream(true).start();
            // The answer is two short lines: they fit the pipe, so waiting first cannot block the child.
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip().lines().toList();
            if (p.exitValue() != 0 || lines.isEmpty()) {
                return Optional.empty();
            }
            Optional<Path> executable = lines.size() > 1 && lines.get(1).startsWith("/") ? Optional.of(Path.of(lines.get(1)))
                    : Optional.empty();
            return Optional.of(new Answer(lines.getFirst().strip(), executable));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
