package dev.remora.domain.testing;

import dev.remora.ports.CpuState;
import dev.remora.ports.FileBytes;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ProcessImage;

import java.util.List;
import java.util.Optional;

/** A process image with nothing to say, for tests that give the domain its memory and layout directly. */
public final class EmptyProcessImage implements ProcessImage {

    private final int pid;

    public EmptyProcessImage() {
        this(4242);
    }

    public EmptyProcessImage(int pid) {
        this.pid = pid;
    }

    @Override
    public int pid() {
        return pid;
    }

    @Override
    public List<MemoryMapping> mappings() {
        return List.of();
    }

    @Override
    public Optional<FileBytes> openFile(String path) {
        return Optional.empty();
    }

    @Override
    public List<Long> threadIds() {
        return List.of();
    }

    @Override
    public CpuState cpuState(long nativeThreadId) {
        return CpuState.UNKNOWN;
    }
}
