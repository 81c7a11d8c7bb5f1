package dev.remora.app.wiring;

/** How memory of a live process is read. */
public enum Backend {
    /** process_vm_readv, through a native binding. */
    vmreadv,
    /** Positional reads of /proc/PID/mem. */
    procmem
}
