package dev.remora.app.testing;

import dev.remora.ports.testing.ProvisionedTargets;

import java.nio.file.Path;
import java.util.List;

/** The provisioned interpreters (see {@link ProvisionedTargets}), as the app's tests run them. */
public final class TargetInterpreters {

    public static final Path DEFAULT_FILE = ProvisionedTargets.DEFAULT_FILE;

    private TargetInterpreters() {}

    /** All listed interpreters; the file is {@code $REMORA_TARGETS_FILE} or {@link #DEFAULT_FILE}. */
    public static List<TargetInterpreter> all() {
        return ProvisionedTargets.all().stream()
                .map(entry -> TargetInterpreter.of(entry.name(), entry.root(), entry.executable()))
                .toList();
    }
}
