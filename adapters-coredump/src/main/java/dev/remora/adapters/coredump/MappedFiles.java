package dev.remora.adapters.coredump;

import dev.remora.ports.MemoryAccessException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The files named in NT_FILE, opened once on this machine and checked to be the ones the process
 * mapped: where the core holds a copy of a file's first page (cores keep ELF headers), the file's
 * first page must equal it, so a library of another build is never read as the target's.
 */
final class MappedFiles implements AutoCloseable {

    /** x86-64 pages: a mapping reads zeros past the end of its file up to the end of that page. */
    private static final int PAGE = 4096;

    /** The core's copy of the first bytes of a file mapped at offset 0, empty when the core has none. */
    @FunctionalInterface
    interface CoreCopy {
        byte[] firstBytes(FileMapping mappingAtOffsetZero, int max);
    }

    /** A file found and checked, with how far the process could read it (its size, to the end of that page). */
    private record OpenFile(FileChannel channel, long readable) {}

    private final Map<String, OpenFile> usable;
    private final Map<String, UnavailableFile> unavailable;
    /** Unavailable files that a read needed: the ones worth telling the user about. */
    private final Set<UnavailableFile> missed = ConcurrentHashMap.newKeySet();

    private MappedFiles(Map<String, OpenFile> usable, Map<String, UnavailableFile> unavailable) {
        this.usable = usable;
        this.unavailable = unavailable;
    }

    static MappedFiles open(FileLocator locator, List<FileMapping> files, CoreCopy coreCopy) {
        Map<String, OpenFile> usable = new LinkedHashMap<>();
        Map<String, UnavailableFile> unavailable = new LinkedHashMap<>();
        Map<String, FileMapping> starts = new HashMap<>();
        for (FileMapping f : files) {
            if (f.fileOffset() == 0) {
                starts.putIfAbsent(f.path(), f);
            }
        }
        for (FileMapping f : files) {
            if (usable.containsKey(f.path()) || unavailable.containsKey(f.path())) {
                continue;
            }
            Optional<Path> lookedAt = locator.primary(f.path());
            if (f.deleted()) {
                unavailable.put(f.path(), new UnavailableFile(f.path(), UnavailableFile.Reason.DELETED, lookedAt));
                continue;
            }
            Optional<Path> found = locator.locate(f.path());
            if (found.isEmpty()) {
                unavailable.put(f.path(), new UnavailableFile(f.path(), UnavailableFile.Reason.NOT_FOUND, lookedAt));
                continue;
            }
            FileChannel channel = null;
            long readable;
            try {
                channel = FileChannel.open(found.get(), StandardOpenOption.READ);
                // Past the end of the file, up to the end of its last page, the process read zeros.
                readable = (channel.size() + PAGE - 1) & -PAGE;
            } catch (IOException | RuntimeException e) {
                if (channel != null) {
                    closeQuietly(channel);
                }
                unavailable.put(f.path(), new UnavailableFile(f.path(), UnavailableFile.Reason.UNREADABLE, found));
                continue;
            }
            if (!sameStart(channel, starts.get(f.path()), coreCopy)) {
                closeQuietly(channel);
                unavailable.put(f.path(), new UnavailableFile(f.path(), UnavailableFile.Reason.DIFFERENT_FILE, found));
                continue;
            }
            usable.put(f.path(), new OpenFile(channel, readable));
        }
        return new MappedFiles(usable, unavailable);
    }

    List<UnavailableFile> unavailable() {
        return List.copyOf(unavailable.values());
    }

    Optional<UnavailableFile> unavailable(String path) {
        return Optional.ofNullable(unavailable.get(path));
    }

    /** The unavailable files that reads have needed so far, in the order the core names them. */
    List<UnavailableFile> missed() {
        return unavailable.values().stream().filter(missed::contains).toList();
    }

    /**
     * Reads what the process saw at {@code address} of mapping {@code f}: the file's bytes, zeros past its
     * end to the end of that page, and nothing beyond (the process would have faulted there).
     */
    void read(FileMapping f, long address, byte[] dst, int offset, int length) throws MemoryAccessException.Unavailable {
        OpenFile file = usable.get(f.path());
        if (file == null) {
            UnavailableFile why = unavailable.get(f.path());
            if (why != null) {
                missed.add(why);
            }
            throw new MemoryAccessException.Unavailable(address, "0x%x is not in the core, and %s%s".formatted(address,
                    why == null ? f.path() + " is unknown" : why.describe(),
                    why != null && why.sysrootMayHelp() ? "; pass --sysroot DIR where it lives" : ""));
        }
        long position = f.fileOffsetOf(address);
        int done;
        long readable = file.readable();
        try {
            done = position < 0 || position >= readable ? 0 : readFully(file.channel(), position, dst, offset, length);
        } catch (IOException e) {
            throw new MemoryAccessException.Unavailable(address, "0x%x is not in the core, and reading %s failed: %s"
                    .formatted(address, f.path(), e.getMessage()));
        }
        if (done < length) {
            long reached = position + done;
            int zeros = position < 0 || reached >= readable ? 0 : (int) Math.min(length - done, readable - reached);
            Arrays.fill(dst, offset + done, offset + done + zeros, (byte) 0);
            if (done + zeros < length) {
                long past = address + done + zeros;
                throw new MemoryAccessException.Unavailable(past, "0x%x is not in the core and lies past the end of %s"
                        .formatted(past, f.path()));
            }
        }
    }

    @Override
    public void close() {
        usable.values().forEach(file -> closeQuietly(file.channel()));
    }

    /** @param first the file's mapping at offset 0, null when the process did not map its start */
    private static boolean sameStart(FileChannel channel, FileMapping first, CoreCopy coreCopy) {
        if (first == null) {
            return true;
        }
        byte[] copy = coreCopy.firstBytes(first, PAGE);
        // Only ELF headers are compared: they are never written to, while a writable mapping of a data
        // file may have changed since it was mapped.
        if (copy.length < 4 || copy[0] != 0x7f || copy[1] != 'E' || copy[2] != 'L' || copy[3] != 'F') {
            return true;
        }
        byte[] onDisk = new byte[copy.length];
        try {
            int n = readFully(channel, 0, onDisk, 0, onDisk.length);
            return n == copy.length && Arrays.equals(copy, onDisk);
        } catch (IOException e) {
            return false;
        }
    }

    private static int readFully(FileChannel channel, long position, byte[] dst, int offset, int length) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(dst, offset, length);
        int done = 0;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, position + done);
            if (n < 0) {
                break;
            }
            done += n;
        }
        return done;
    }

    private static void closeQuietly(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // Read-only: nothing is lost.
        }
    }
}
