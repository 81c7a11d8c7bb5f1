package dev.remora.app.cli;

/** A failure that is the user's to fix, shown as one line without a stack trace. */
public final class UserError extends RuntimeException {
    private final int exitCode;

    public UserError(String message, int exitCode) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    public int exitCode() {
        return exitCode;
    }
}
