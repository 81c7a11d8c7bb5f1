package dev.remora.app.cli;

import dev.remora.app.wiring.Backend;
import picocli.CommandLine.Option;

/** {@code --backend} for commands that start their own target. */
public final class BackendOption {
    @Option(names = "--backend", paramLabel = "vmreadv|procmem", defaultValue = "vmreadv",
            description = "How to read the target's memory: process_vm_readv (default) or /proc/PID/mem.")
    Backend backend;
}
