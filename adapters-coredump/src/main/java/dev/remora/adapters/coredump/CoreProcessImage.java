package dev.remora.adapters.coredump;

import dev.remora.ports.ChannelFileBytes;
import dev.remora.ports.CpuState;
import dev.remora.ports.FatalSignal;
import dev.remora.ports.FileBytes;
import dev.remora.ports.ThreadRegisters;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ProcessImage;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Optional;

/**
 * A process as its core describes it: the pid, threads and mappings it recorded, and files opened
 * where the core's machine had them. Nothing changes after construction; thread-safe.
 */
final class CoreProcessImage implements ProcessImage {

    private final ProcessNotes process;
    private final List<MemoryMapping> mappings;
    private final FileLocator locator;
    private final MappedFiles files;

    CoreProcessImage(ProcessNotes process, AddressSpace space, FileLocator locator, MappedFiles files) {
        this.process = process;
        this.mappings = space.regions().stream().map(Region::toMapping).toList();
        this.locator = locator;
        this.files = files;
    }

    @Override
    public int pid() {
        return process.pid();
    }

    @Override
    public List<MemoryMapping> mappings() {
        return mappings;
    }

    /**
     * Opens a file under the sysroot (or at its path). A mapped file found to be another build, or
     * recorded as deleted, is not offered: its sections would not be the target's.
     */
    @Override
    public Optional<FileBytes> openFile(String path) {
        Optional<UnavailableFile> known = files.unavailable(path);
        if (known.isPresent() && known.get().reason() != UnavailableFile.Reason.NOT_FOUND) {
            return Optional.empty();
        }
        Optional<Path> found = locator.locate(path);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new ChannelFileBytes(FileChannel.open(found.get(), StandardOpenOption.READ)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<Long> threadIds() {
        return process.threadIds();
    }

    /** A core is a moment long past: whether a thread was on a CPU is not recorded. */
    @Override
    public CpuState cpuState(long nativeThreadId) {
        return CpuState.UNKNOWN;
    }

    /** NT_PRPSINFO keeps the process's comm, which is its main thread's name; other threads' names are not recorded. */
    @Override
    public Optional<String> threadName(long nativeThreadId) {
        return nativeThreadId == process.pid() ? process.command() : Optional.empty();
    }

    @Override
    public Optional<ThreadRegisters> registers(long nativeThreadId) {
        return Optional.ofNullable(process.registers().get(nativeThreadId));
    }

    @Override
    public Optional<FatalSignal> fatalSignal() {
        return process.fatal();
    }

    @Override
    public String toString() {
        return "CoreProcessImage[pid=" + process.pid() + "]";
    }
}
