package dev.remora.ports;

/** Whether a thread is on a CPU right now, as far as the source can tell. */
public enum CpuState {
    RUNNING,
    IDLE,
    /** The source cannot answer: a core file, or the thread vanished. */
    UNKNOWN
}
