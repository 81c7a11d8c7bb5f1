package dev.remora.app.agent;

import java.io.IOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Writes each window as a pprof file, {@code SERVICE.PID.TIME.pb.gz} (the window's start, UTC), into
 * one directory: what {@code go tool pprof} reads. A file appears whole (written aside, then
 * renamed). The oldest files are deleted once they are older than the age bound or the directory's
 * files pass the size bound; only pprof files ({@code *.pb.gz}) are counted or deleted.
 */
final class DirectorySink implements Sink {

    static final String SUFFIX = ".pb.gz";
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    private record Written(Path path, long bytes, long modifiedMillis) {}

    private final Path directory;
    private final long maxAgeMillis;
    private final long maxBytes;
    /** The directory's pprof files, oldest first. */
    private final ArrayDeque<Written> files = new ArrayDeque<>();
    private long bytes;

    DirectorySink(Path directory, long maxAgeMillis, long maxBytes) throws IOException {
        this.directory = directory;
        this.maxAgeMillis = maxAgeMillis;
        this.maxBytes = maxBytes;
        Files.createDirectories(directory);
        List<Written> found = new ArrayList<>();
        try (DirectoryStream<Path> listing = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path path : listing) {
                found.add(new Written(path, Files.size(path), Files.getLastModifiedTime(path).toMillis()));
            }
        }
        found.sort(Comparator.comparingLong(Written::modifiedMillis));
        for (Written file : found) {
            files.addLast(file);
            bytes += file.bytes();
        }
    }

    @Override
    public String name() {
        return "directory " + directory;
    }

    @Override
    public WireFormat format() {
        return WireFormat.PPROF;
    }

    @Override
    public void deliver(ProfileWindow window) throws DeliveryFailure {
        String name = window.labels().serviceName() + "." + window.pid() + "." + TIME.format(Instant.ofEpochMilli(window.fromMillis()))
                + SUFFIX;
        Path target = directory.resolve(name);
        Path aside = directory.resolve("." + name + ".part");
        try {
            Files.write(aside, window.body(WireFormat.PPROF));
            try {
                Files.move(aside, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(aside, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(aside);
            } catch (IOException ignored) {
                // The disk that refused the write may refuse this too; the next write tries again.
            }
            throw new DeliveryFailure(DeliveryFailure.Next.RETRY, "cannot write " + target + ": " + e.getMessage());
        }
        files.addLast(new Written(target, window.body(WireFormat.PPROF).length, System.currentTimeMillis()));
        bytes += window.body(WireFormat.PPROF).length;
        rotate();
    }

    /** Deletes the oldest files past either bound; the newest one is always kept. */
    private void rotate() {
        long now = System.currentTimeMillis();
        while (files.size() > 1 && (bytes > maxBytes || now - files.peekFirst().modifiedMillis() > maxAgeMillis)) {
            Written oldest = files.removeFirst();
            bytes -= oldest.bytes();
            try {
                Files.deleteIfExists(oldest.path());
            } catch (IOException ignored) {
                // Someone else's to clean up now; it is no longer counted.
            }
        }
    }
}
