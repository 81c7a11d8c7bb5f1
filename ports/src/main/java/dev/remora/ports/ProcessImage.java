package dev.remora.ports;

import java.util.List;
import java.util.Optional;

/** What the target looks like apart from its memory: mappings, the files behind them, threads. */
public interface ProcessImage {

    int pid();

    List<MemoryMapping> mappings() throws ProcessImageException;

    /**
     * Opens a file by the path the target uses for it (resolved through the target's root, or a sysroot).
     * Empty when the file is not there or cannot be read.
     */
    Optional<FileBytes> openFile(String path);

    /** The OS thread ids of the target. */
    List<Long> threadIds() throws ProcessImageException;

    CpuState cpuState(long nativeThreadId);

    /** The OS's name for a thread (CPython 3.14+ sets it from {@code Thread.name}), if the source knows it. */
    default Optional<String> threadName(long nativeThreadId) {
        return Optional.empty();
    }

    /**
     * A thread's registers where the source holds them without stopping anything: a core's NT_PRSTATUS.
     * A live process's come from its {@link ProcessStopper} while stopped.
     */
    default Optional<ThreadRegisters> registers(long nativeThreadId) {
        return Optional.empty();
    }

    /** The signal a core's process died of and the thread that took it, when the source is such a core. */
    default Optional<FatalSignal> fatalSignal() {
        return Optional.empty();
    }
}
