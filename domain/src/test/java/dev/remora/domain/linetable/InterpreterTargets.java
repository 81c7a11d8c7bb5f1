package dev.remora.domain.linetable;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The targets file written by scripts/provision-targets.sh: one {@code name<TAB>root<TAB>exe}
 * line per interpreter. A missing or empty file is an error, not a reason to skip: the
 * conformance test must not pass by checking nothing.
 */
final class InterpreterTargets {

    static final String LOCATION_VARIABLE = "REMORA_TARGETS_FILE";
    static final Path DEFAULT_LOCATION = Path.of("/var/cache/remora/targets.tsv");

    private InterpreterTargets() {
    }

    static Path location() {
        String override = System.getenv(LOCATION_VARIABLE);
        return override == null || override.isBlank() ? DEFAULT_LOCATION : Path.of(override);
    }

    static List<InterpreterTarget> load(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            throw new IllegalStateException("no targets file " + file
                    + " (run scripts/provision-targets.sh as root, or set " + LOCATION_VARIABLE + ")");
        }
        List<InterpreterTarget> targets = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            String[] fields = line.split("\t");
            if (fields.length != 3) {
                throw new IllegalStateException("targets file " + file + ": expected name<TAB>root<TAB>exe, got: " + line);
            }
            targets.add(new InterpreterTarget(fields[0], fields[1], fields[2]));
        }
        if (targets.isEmpty()) {
            throw new IllegalStateException("targets file " + file + " lists no interpreter");
        }
        return targets;
    }
}
