package dev.remora.adapters.coredump;

/**
 * Why a file could not be read as a core dump. Sealed so callers handle every cause; each message
 * names the file and fits on one line.
 */
public abstract sealed class CoreFileException extends Exception
        permits CoreFileException.Unreadable, CoreFileException.NotElf, CoreFileException.NotCore,
                CoreFileException.Unsupported, CoreFileException.Truncated, CoreFileException.Corrupt {

    private CoreFileException(String message) {
        super(message, null, false, false);
    }

    /** The file could not be opened or mapped: missing, not a regular file, no permission. */
    public static final class Unreadable extends CoreFileException {
        public Unreadable(String message) {
            super(message);
        }
    }

    /** The file does not start with the ELF magic. */
    public static final class NotElf extends CoreFileException {
        public NotElf(String message) {
            super(message);
        }
    }

    /** An ELF file, but an executable, a library or an object rather than a core (ET_CORE). */
    public static final class NotCore extends CoreFileException {
        public NotCore(String message) {
            super(message);
        }
    }

    /** A core of a kind this reader does not handle: 32-bit, big-endian, another machine. */
    public static final class Unsupported extends CoreFileException {
        public Unsupported(String message) {
            super(message);
        }
    }

    /** A header, note or segment reaches past the end of the file. */
    public static final class Truncated extends CoreFileException {
        public Truncated(String message) {
            super(message);
        }
    }

    /** Headers or notes contradict themselves: sizes out of bounds, overlapping segments, missing names. */
    public static final class Corrupt extends CoreFileException {
        public Corrupt(String message) {
            super(message);
        }
    }
}
