package dev.remora.domain.linetable;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * pyenv's CPython 3.9 and 3.8, which keep their lines in co_lnotab: not yet targets of their own, so
 * not in the provisioned targets file. scripts/provision-targets.sh requires a 3.9 (the "unsupported
 * version" tests use it), so a missing 3.9 fails; a missing 3.8 is left out.
 */
final class OlderPythons {

    private OlderPythons() {}

    static List<InterpreterTarget> lineNotes() throws IOException {
        Path versions = Path.of(System.getenv().getOrDefault("PYENV_ROOT", "/root/.pyenv"), "versions");
        List<InterpreterTarget> found = new ArrayList<>();
        for (String minor : List.of("3.9", "3.8")) {
            Path exe = newest(versions, minor);
            if (exe == null) {
                if (minor.equals("3.9")) {
                    throw new IllegalStateException("no pyenv CPython 3.9 under " + versions + " (scripts/provision-targets.sh)");
                }
                continue;
            }
            found.add(new InterpreterTarget("pyenv-" + exe.getParent().getParent().getFileName(), "/", exe.toString()));
        }
        return found;
    }

    private static Path newest(Path versions, String minor) throws IOException {
        Path best = null;
        if (!Files.isDirectory(versions)) {
            return null;
        }
        try (DirectoryStream<Path> all = Files.newDirectoryStream(versions, minor + ".*")) {
            for (Path version : all) {
                Path exe = version.resolve("bin/python" + minor);
                if (Files.isExecutable(exe) && (best == null || version.compareTo(best.getParent().getParent()) > 0)) {
                    best = exe;
                }
            }
        }
        return best;
    }
}
