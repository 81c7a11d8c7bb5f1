package dev.remora.adapters.procmem;

import dev.remora.ports.CpuState;
import dev.remora.ports.FileBytes;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.ProcessImageException.Reason;
import dev.remora.ports.PtraceAdvice;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A live Linux process described through /proc: its mappings, the files behind them, its threads.
 * Holds nothing but the pid, so every call sees the process as it is now; thread-safe.
 */
public final class ProcfsProcessImage implements ProcessImage {

    private final int pid;

    private ProcfsProcessImage(int pid) {
        this.pid = pid;
    }

    /**
     * The image of a running process.
     *
     * @throws ProcessImageException with {@link Reason#NO_SUCH_PROCESS} when no such process is running
     */
    public static ProcfsProcessImage of(int pid) throws ProcessImageException {
        requireProcess(pid);
        return new ProcfsProcessImage(pid);
    }

    /** True when {@code pid} names a process (not merely a thread) that has not exited. */
    public static boolean exists(int pid) {
        return Procfs.isLiveProcess(pid);
    }

    /** Fails with {@link Reason#NO_SUCH_PROCESS} unless {@link #exists(int)}. */
    public static void requireProcess(int pid) throws ProcessImageException {
        if (!exists(pid)) {
            throw noSuchProcess(pid);
        }
    }

    @Override
    public int pid() {
        return pid;
    }

    @Override
    public List<MemoryMapping> mappings() throws ProcessImageException {
        String maps;
        try {
            // Paths are bytes to the kernel; UTF-8 matches how the JDK names files on Linux.
            maps = new String(Files.readAllBytes(Procfs.dir(pid).resolve("maps")), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw failure(e);
        }
        if (maps.isEmpty() && !exists(pid)) {
            throw noSuchProcess(pid); // a zombie keeps its /proc entry but no mappings
        }
        try {
            return List.copyOf(MapsParser.parse(maps));
        } catch (IllegalArgumentException e) {
            throw new ProcessImageException(Reason.UNREADABLE, e.getMessage());
        }
    }

    @Override
    public Optional<FileBytes> openFile(String path) {
        return TargetFiles.open(this, path);
    }

    @Override
    public List<Long> threadIds() throws ProcessImageException {
        try (Stream<Path> tasks = Files.list(Procfs.taskDir(pid))) {
            List<Long> ids = tasks.map(p -> p.getFileName().toString())
                    .filter(name -> !name.isEmpty() && name.chars().allMatch(Character::isDigit))
                    .map(Long::valueOf)
                    .sorted()
                    .toList();
            if (ids.isEmpty()) {
                throw noSuchProcess(pid);
            }
            return ids;
        } catch (IOException e) {
            throw failure(e);
        }
    }

    @Override
    public CpuState cpuState(long nativeThreadId) {
        return Procfs.threadStat(pid, nativeThreadId)
                .map(stat -> switch (stat.state()) {
                    case 'R' -> CpuState.RUNNING;
                    case 'S', 'D', 'T', 't', 'Z', 'I', 'X', 'x', 'K', 'P' -> CpuState.IDLE;
                    default -> CpuState.UNKNOWN;
                })
                .orElse(CpuState.UNKNOWN);
    }

    @Override
    public Optional<String> threadName(long nativeThreadId) {
        try {
            String comm = Files.readString(Procfs.taskDir(pid).resolve(Long.toString(nativeThreadId)).resolve("comm"));
            return Optional.of(comm.strip()).filter(name -> !name.isEmpty());
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private ProcessImageException failure(IOException e) {
        if (e instanceof NoSuchFileException || !exists(pid)) {
            return noSuchProcess(pid);
        }
        if (e instanceof AccessDeniedException) {
            return new ProcessImageException(Reason.PERMISSION_DENIED, PtraceAdvice.message(pid));
        }
        return new ProcessImageException(Reason.UNREADABLE,
                "cannot read /proc/%d: %s".formatted(pid, e.getMessage()));
    }

    private static ProcessImageException noSuchProcess(int pid) {
        return new ProcessImageException(Reason.NO_SUCH_PROCESS, "no process with pid " + pid);
    }

    @Override
    public String toString() {
        return "ProcfsProcessImage[pid=" + pid + "]";
    }
}
