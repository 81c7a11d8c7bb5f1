package dev.remora.ports.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The interpreters listed in the targets file written by scripts/provision-targets.sh, one
 * {@code name<TAB>root<TAB>exe} line each; every module's tests read it through here. A missing or
 * empty file is an error, never a reason to skip: tests that inspect nothing would pass without
 * testing anything.
 */
public final class ProvisionedTargets {

    public static final String FILE_VARIABLE = "REMORA_TARGETS_FILE";
    public static final Path DEFAULT_FILE = Path.of("/var/cache/remora/targets.tsv");

    /** One listed interpreter: run as {@code chroot root executable}, or directly when root is "/". */
    public record Entry(String name, Path root, String executable) {}

    private ProvisionedTargets() {}

    /** All listed interpreters; the file is {@code $REMORA_TARGETS_FILE} or {@link #DEFAULT_FILE}. */
    public static List<Entry> all() {
        String override = System.getenv(FILE_VARIABLE);
        return read(override == null || override.isBlank() ? DEFAULT_FILE : Path.of(override));
    }

    public static List<Entry> read(Path file) {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("no targets file " + file + ": run scripts/provision-targets.sh as root"
                    + " (or point " + FILE_VARIABLE + " at one)");
        }
        List<Entry> targets = new ArrayList<>();
        for (String line : lines(file)) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            if (fields.length != 3 || fields[0].isEmpty() || fields[1].isEmpty() || fields[2].isEmpty()) {
                throw new IllegalStateException("bad line in " + file + " (want name<TAB>root<TAB>exe): " + line);
            }
            targets.add(new Entry(fields[0], Path.of(fields[1]), fields[2]));
        }
        if (targets.isEmpty()) {
            throw new IllegalStateException("targets file " + file + " lists no interpreters: run scripts/provision-targets.sh");
        }
        return List.copyOf(targets);
    }

    private static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }
}
