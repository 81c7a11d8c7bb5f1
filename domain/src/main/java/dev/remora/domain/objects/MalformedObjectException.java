package dev.remora.domain.objects;

/** An object read from the target does not have the shape its type promises: stale or garbage memory. */
public final class MalformedObjectException extends Exception {
    public MalformedObjectException(String message) {
        super(message, null, false, false);
    }
}
