package dev.remora.domain.archfixture;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Test fixture: domain-package code that reads files itself, which the layering rules forbid. */
public final class ReadsFileSystem {
    private ReadsFileSystem() {}

    public static byte[] read(String path) throws IOException {
        return Files.readAllBytes(Path.of(path));
    }

    public static boolean exists(String path) {
        return new File(path).exists();
    }
}
