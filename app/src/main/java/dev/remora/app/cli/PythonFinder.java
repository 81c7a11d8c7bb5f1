package dev.remora.app.cli;

import dev.remora.domain.offsets.VersionLayout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Finds a Python that Remora can read, for {@code remora run} without {@code --python}. */
final class PythonFinder {

    /** The supported versions' own names, newest first, then the generic ones. */
    private static final List<String> NAMES = Stream.concat(
            VersionLayout.supportedNames().reversed().stream().map(name -> "python" + name),
            Stream.of("python3", "python")).toList();

    private PythonFinder() {}

    static Path find() {
        for (Path candidate : candidates()) {
            if (supported(candidate)) {
                return candidate;
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
        return candidates().stream().filter(PythonFinder::isCpython315).findFirst().orElseThrow(() -> new UserError(
                "--compare-cpython needs a CPython 3.15; name one with --cpython EXE", UserErrorHandler.EXIT_FAILURE));
    }

    static boolean isCpython315(Path python) {
        return Files.isExecutable(python) && answer(python).filter(a -> a.startsWith("cpython 3 15 ")).isPresent();
    }

    private static List<Path> candidates() {
        List<Path> found = new ArrayList<>();
        String path = System.getenv().getOrDefault("PATH", "");
        for (String name : NAMES) {
            for (String dir : path.split(":")) {
                if (!dir.isEmpty() && !dir.contains("/.pyenv/shims")) {
                    Path p = Path.of(dir, name);
                    if (Files.isExecutable(p)) {
                        found.add(p);
                    }
                }
            }
        }
        Path pyenv = Path.of(System.getenv().getOrDefault("PYENV_ROOT", System.getProperty("user.home") + "/.pyenv"), "versions");
        if (Files.isDirectory(pyenv)) {
            try (Stream<Path> versions = Files.list(pyenv)) {
                versions.filter(v -> v.getFileName().toString().matches("\\d+\\.\\d+\\.\\d+"))
                        .filter(v -> supportedMinor(v.getFileName().toString()))
                        .sorted(Comparator.comparing((Path v) -> v.getFileName().toString()).reversed())
                        .map(v -> v.resolve("bin/python3")).filter(Files::isExecutable).forEach(found::add);
            } catch (IOException ignored) {
                // No pyenv versions to offer.
            }
        }
        return found;
    }

    private static boolean supported(Path python) {
        return answer(python).filter(a -> a.matches("cpython \\d+ \\d+ 1"))
                .filter(a -> supportedMinor(a.split(" ")[1] + "." + a.split(" ")[2])).isPresent();
    }

    /** Whether "3.12" or "3.12.1" names a supported minor version. */
    private static boolean supportedMinor(String version) {
        String[] parts = version.split("\\.");
        return VersionLayout.supportedNames().contains(parts[0] + "." + parts[1]);
    }

    /** "IMPLEMENTATION MAJOR MINOR GIL" as the interpreter reports it, if it runs. */
    private static Optional<String> answer(Path python) {
        try {
            Process p = new ProcessBuilder(python.toString(), "-c",
                    "import sys; print(sys.implementation.name, sys.version_info[0], sys.version_info[1], "
                            + "int(bool(getattr(sys, '_is_gil_enabled', lambda: True)())))")
                    .redirectErrorStream(true).start();
            // The answer is one short line: it fits the pipe, so waiting first cannot block the child.
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return Optional.empty();
            }
            String answer = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            return p.exitValue() == 0 ? Optional.of(answer) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }
}
