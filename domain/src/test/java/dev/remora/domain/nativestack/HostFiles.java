package dev.remora.domain.nativestack;

import dev.remora.ports.ChannelFileBytes;
import dev.remora.ports.FileBytes;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/** The host's files, opened the way an adapter would open the target's. */
final class HostFiles {

    static final String LIBC = "/lib/x86_64-linux-gnu/libc.so.6";

    private HostFiles() {}

    static Optional<FileBytes> open(String path) {
        try {
            return Optional.of(new ChannelFileBytes(FileChannel.open(Path.of(path), StandardOpenOption.READ)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static byte[] readAll(String path) {
        try {
            return Files.readAllBytes(Path.of(path));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean exists(String path) {
        return Files.isReadable(Path.of(path));
    }
}
