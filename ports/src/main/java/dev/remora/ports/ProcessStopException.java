package dev.remora.ports;

/** A process could not be stopped or resumed; the message says why, in a user's terms. */
public final class ProcessStopException extends Exception {

    public enum Reason {
        /** Another process (a debugger, another profiler) traces it already. */
        ALREADY_TRACED,
        /** The operating system refused: ptrace rules or capabilities. */
        PERMISSION_DENIED,
        /** The process exited. */
        GONE,
        /** A thread would not stop, or the system offers no way to stop it. */
        UNAVAILABLE
    }

    private final Reason reason;

    public ProcessStopException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
