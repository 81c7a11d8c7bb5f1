package dev.remora.adapters.vmreadv;

/** A native call failed without transferring anything; carries the C {@code errno}. */
final class ErrnoException extends Exception {

    private final int errno;

    ErrnoException(int errno) {
        // Stackless: failed reads of bad pointers are routine, not exceptional.
        super("errno " + errno, null, false, false);
        this.errno = errno;
    }

    int errno() {
        return errno;
    }
}
