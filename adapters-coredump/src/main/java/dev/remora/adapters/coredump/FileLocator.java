package dev.remora.adapters.coredump;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Finds, on this machine, a file by the path the target used for it: under the sysroot when one is
 * given (the tree the core's machine or container had), else at the path itself.
 */
final class FileLocator {

    private final Optional<Path> sysroot;

    /** @param sysroot absolute and normalized */
    FileLocator(Optional<Path> sysroot) {
        this.sysroot = sysroot;
    }

    /** Where {@code path} is looked for first; empty for paths that cannot name a file (pseudo paths, ".."). */
    Optional<Path> primary(String path) {
        if (!acceptable(path)) {
            return Optional.empty();
        }
        try {
            return Optional.of(sysroot.map(root -> root.resolve(path.substring(1))).orElse(Path.of(path)));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    /**
     * The regular file for {@code path}. With a sysroot, a path that already lies inside it (gdb run
     * outside a chroot records the host's paths) is taken as it is when the sysroot has no such file.
     */
    Optional<Path> locate(String path) {
        Optional<Path> first = primary(path);
        if (first.isEmpty()) {
            return Optional.empty();
        }
        if (Files.isRegularFile(first.get())) {
            return first;
        }
        if (sysroot.isPresent()) {
            Path asRecorded = Path.of(path);
            if (asRecorded.startsWith(sysroot.get()) && Files.isRegularFile(asRecorded)) {
                return Optional.of(asRecorded);
            }
        }
        return Optional.empty();
    }

    /** Absolute, no NUL, and no ".." that could climb out of the sysroot; pseudo paths like [heap] or <frozen os> fail. */
    private static boolean acceptable(String path) {
        if (path == null || !path.startsWith("/") || path.indexOf('\0') >= 0) {
            return false;
        }
        for (String part : path.split("/")) {
            if (part.equals("..")) {
                return false;
            }
        }
        return true;
    }
}
