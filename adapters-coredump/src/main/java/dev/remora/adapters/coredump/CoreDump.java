package dev.remora.adapters.coredump;

import dev.remora.ports.ProcessImage;
import dev.remora.ports.RemoteMemory;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.FileChannel;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * An ELF core file opened as a process: {@link #image()} and {@link #memory()} implement the ports
 * from the core alone, plus the files it names where this machine has them.
 *
 * <p>The core is mapped, never read into the heap, so cores of many GiB open in constant memory.
 * Closing the dump (or its memory) unmaps it and closes the mapped files.
 */
public final class CoreDump implements AutoCloseable {

    private final Arena arena;
    private final CoreProcessImage image;
    private final CoreMemory memory;
    private final MappedFiles files;
    private final AtomicBoolean closed = new AtomicBoolean();

    private CoreDump(Arena arena, CoreBytes core, CoreLayout layout, FileLocator locator) {
        this.arena = arena;
        AddressSpace space = layout.space();
        // Each file is checked against the core's own copy of its first page.
        this.files = MappedFiles.open(locator, layout.files(), (m, max) -> space.heldInCore(core, m.start(), max));
        this.memory = new CoreMemory(core, space, files, this::close);
        this.image = new CoreProcessImage(layout.process(), space, locator, files);
    }

    /**
     * Opens {@code core}; the files it names are looked for under {@code sysroot} when given, else at
     * the paths it records.
     *
     * @throws CoreFileException when the file is missing, unreadable, not a 64-bit x86-64 ELF core, truncated or corrupt
     */
    public static CoreDump open(Path core, Optional<Path> sysroot) throws CoreFileException {
        String name = core.toString();
        if (Files.isDirectory(core) || (Files.exists(core) && !Files.isRegularFile(core))) {
            throw new CoreFileException.Unreadable(name + " is not a regular file");
        }
        FileLocator locator = new FileLocator(sysroot.map(p -> p.toAbsolutePath().normalize()));
        Arena arena = Arena.ofShared();
        try (FileChannel channel = FileChannel.open(core, StandardOpenOption.READ)) {
            long size = channel.size();
            if (size == 0) {
                throw new CoreFileException.NotElf(name + " is empty, not a core file");
            }
            // One mapping of any size: MemorySegment offsets are longs, unlike a MappedByteBuffer's.
            MemorySegment segment = channel.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return read(arena, new CoreBytes(segment, name), locator);
        } catch (NoSuchFileException e) {
            arena.close();
            throw new CoreFileException.Unreadable("cannot read core " + name + ": no such file");
        } catch (AccessDeniedException e) {
            arena.close();
            throw new CoreFileException.Unreadable("cannot read core " + name + ": permission denied");
        } catch (IOException | UnsupportedOperationException e) {
            arena.close();
            throw new CoreFileException.Unreadable("cannot read core " + name + ": " + e.getMessage());
        } catch (CoreFileException | RuntimeException e) {
            arena.close();
            throw e;
        }
    }

    /** Parses a core already in memory; {@code arena} (nullable) is closed with the dump. */
    static CoreDump read(Arena arena, CoreBytes core, FileLocator locator) throws CoreFileException {
        return new CoreDump(arena, core, CoreLayout.read(core), locator);
    }

    public ProcessImage image() {
        return image;
    }

    /** The target's memory; closing it closes this dump. */
    public RemoteMemory memory() {
        return memory;
    }

    public int pid() {
        return image.pid();
    }

    /** Files the core names that this machine cannot supply, in the order the core names them. */
    public List<UnavailableFile> unavailableFiles() {
        return files.unavailable();
    }

    /**
     * The unavailable files that reads of the target's memory have needed so far: bytes the core left
     * out, which only these files could have supplied.
     */
    public List<UnavailableFile> missedFiles() {
        return files.missed();
    }

    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            files.close();
            if (arena != null) {
                arena.close();
            }
        }
    }
}
