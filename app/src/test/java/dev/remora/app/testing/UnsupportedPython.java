package dev.remora.app.testing;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/** A CPython older than any supported one: pyenv's 3.7, which scripts/provision-targets.sh requires. */
public final class UnsupportedPython {

    /** What the one-line error names as supported. */
    public static final String SUPPORTED = "supported: 3.8, 3.9, 3.10, 3.11, 3.12, 3.13, 3.14, 3.15";
    /** Its minor version, as the error names it. */
    public static final String VERSION = "3.7";

    private UnsupportedPython() {}

    public static Path executable() throws IOException {
        Path versions = Path.of(System.getenv().getOrDefault("PYENV_ROOT", "/root/.pyenv"), "versions");
        try (Stream<Path> all = Files.list(versions)) {
            return all.filter(p -> p.getFileName().toString().matches("3\\.7\\..*"))
                    .map(p -> p.resolve("bin/python3")).filter(Files::isExecutable).findFirst()
                    .orElseThrow(() -> new IllegalStateException("no CPython 3.7 under " + versions));
        }
    }
}
