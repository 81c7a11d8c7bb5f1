package dev.remora.ports;

/**
 * The signal that ended a process, as its core tells it: the thread that took it (the kernel writes
 * that thread's NT_PRSTATUS first) and the signal number (NT_SIGINFO, else the status's cursig).
 *
 * @param faultAddress the address that faulted, for SIGSEGV and SIGBUS, else 0
 */
public record FatalSignal(long threadId, int signal, long faultAddress) {

    /** The usual name ("SIGSEGV"), or "signal N". */
    public String name() {
        return switch (signal) {
            case 4 -> "SIGILL";
            case 5 -> "SIGTRAP";
            case 6 -> "SIGABRT";
            case 7 -> "SIGBUS";
            case 8 -> "SIGFPE";
            case 9 -> "SIGKILL";
            case 11 -> "SIGSEGV";
            case 3 -> "SIGQUIT";
            case 31 -> "SIGSYS";
            default -> "signal " + signal;
        };
    }
}
