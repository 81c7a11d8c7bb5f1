package dev.remora.app.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Which Python {@code run} picks without {@code --python}: the one the user gets by typing
 * {@code python3}. Stand-in interpreters answer as a real one would: implementation, version, GIL,
 * and {@code sys.executable}.
 */
class PythonFinderTest {

    @TempDir
    Path dir;

    /** A stand-in that says it is CPython 3.{@code minor} at {@code executable}. */
    private Path python(String where, String name, int minor, String executable) throws IOException {
        Path bin = Files.createDirectories(dir.resolve(where));
        Path exe = bin.resolve(name);
        Files.writeString(exe, "#!/bin/sh\necho cpython 3 %d 1\necho %s\n".formatted(minor, executable == null ? exe : executable));
        Files.setPosixFilePermissions(exe, PosixFilePermissions.fromString("rwxr-xr-x"));
        return exe;
    }

    private Map<String, String> env(String path, String... more) {
        Map<String, String> env = new java.util.HashMap<>(Map.of("PATH", path, "PYENV_ROOT", dir.resolve("no-pyenv").toString()));
        for (int i = 0; i < more.length; i += 2) {
            env.put(more[i], more[i + 1]);
        }
        return env;
    }

    @Test
    void anActiveVirtualEnvironmentComesFirst() throws Exception {
        Path venv = python("venv/bin", "python3", 12, null);
        python("usr/bin", "python3", 13, null);
        python("usr/bin", "python3.15", 15, null);

        PythonFinder.Found found = PythonFinder.find(env(dir.resolve("usr/bin").toString(), "VIRTUAL_ENV", dir.resolve("venv").toString()));

        assertThat(found.executable()).isEqualTo(venv);
        assertThat(found.how()).contains("virtual environment");
    }

    @Test
    void python3OnPathComesBeforeANewerVersionedOne() throws Exception {
        Path first = python("a", "python3", 11, null);
        python("b", "python3.15", 15, null);
        python("b", "python3", 14, null);

        PythonFinder.Found found = PythonFinder.find(env(dir.resolve("a") + ":" + dir.resolve("b")));

        assertThat(found.executable()).isEqualTo(first);
        assertThat(found.how()).isEqualTo("python3 on PATH");
    }

    @Test
    void aPyenvShimIsResolvedToThePythonItSelects() throws Exception {
        Path selected = python("versions/3.13.0/bin", "python3.13", 13, null);
        python(".pyenv/shims", "python3", 13, selected.toString());

        PythonFinder.Found found = PythonFinder.find(env(dir.resolve(".pyenv/shims").toString()));

        assertThat(found.executable()).isEqualTo(selected);
    }

    @Test
    void anUnsupportedPython3GivesWayToTheNewestSupportedVersion() throws Exception {
        python("a", "python3", 7, null);
        Path versioned = python("a", "python3.13", 13, null);
        python("a", "python3.12", 12, null);

        PythonFinder.Found found = PythonFinder.find(env(dir.resolve("a").toString()));

        assertThat(found.executable()).isEqualTo(versioned);
        assertThat(found.how()).contains("newest supported");
    }

    @Test
    void noSupportedPythonIsAOneLineError() throws Exception {
        python("a", "python3", 7, null);

        assertThatThrownBy(() -> PythonFinder.find(env(dir.resolve("a").toString())))
                .isInstanceOf(UserError.class).hasMessageContaining("--python EXE");
    }
}
