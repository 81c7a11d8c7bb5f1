package dev.remora.ports;

/** The process image could not be described: the process is gone, or its metadata is unreadable. */
public final class ProcessImageException extends Exception {
    public enum Reason { NO_SUCH_PROCESS, PERMISSION_DENIED, UNREADABLE }

    private final Reason reason;

    public ProcessImageException(Reason reason, String message) {
        super(message, null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
