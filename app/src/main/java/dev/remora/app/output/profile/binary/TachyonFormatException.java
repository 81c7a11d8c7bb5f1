package dev.remora.app.output.profile.binary;

/** A capture that is not a readable binary profile, said in one line. */
public final class TachyonFormatException extends Exception {
    public TachyonFormatException(String message) {
        super(message, null, false, false);
    }
}
