package dev.remora.app.cli;

import dev.remora.app.output.profile.binary.TachyonFormatException;
import dev.remora.app.output.profile.binary.TachyonReader;
import dev.remora.app.output.profile.collapsed.CollapsedReader;
import dev.remora.domain.profile.Profile;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/** {@code --diff-flamegraph BASELINE}: the profile to compare with, from a binary capture or collapsed stacks. */
final class BaselineProfile {

    private static final byte[] BINARY_MAGIC = "HCAT".getBytes(StandardCharsets.US_ASCII);

    private BaselineProfile() {}

    /** Read before sampling starts, so that a bad baseline fails at once and costs no run. */
    static Profile read(Path path) {
        if (!Files.isRegularFile(path)) {
            throw new UserError("no baseline %s".formatted(path), UserErrorHandler.EXIT_USAGE);
        }
        try {
            byte[] head;
            try (InputStream in = Files.newInputStream(path)) {
                head = in.readNBytes(BINARY_MAGIC.length);
            }
            if (Arrays.equals(head, BINARY_MAGIC)) {
                return TachyonReader.read(path);
            }
            return CollapsedReader.read(Files.readAllLines(path, StandardCharsets.UTF_8), path.toString());
        } catch (TachyonFormatException | IllegalArgumentException e) {
            throw new UserError("cannot use %s as a baseline: %s".formatted(path, e.getMessage()), UserErrorHandler.EXIT_USAGE);
        } catch (IOException e) {
            throw new UserError("cannot read the baseline %s: %s".formatted(path, e.getMessage()), UserErrorHandler.EXIT_USAGE);
        }
    }
}
