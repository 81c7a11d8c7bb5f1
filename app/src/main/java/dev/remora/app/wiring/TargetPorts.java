package dev.remora.app.wiring;

import dev.remora.ports.ProcessImage;
import dev.remora.ports.RemoteMemory;

/** The ports one command works with: what the target looks like, and its memory. */
public record TargetPorts(ProcessImage image, RemoteMemory memory) implements AutoCloseable {
    @Override
    public void close() {
        memory.close();
    }
}
