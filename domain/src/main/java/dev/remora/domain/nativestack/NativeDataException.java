package dev.remora.domain.nativestack;

/**
 * Unwind tables, symbols or an ELF image that are malformed, too large, or use something this reader
 * does not support. The message says which, fit to end a stack walk with.
 */
final class NativeDataException extends Exception {

    NativeDataException(String message) {
        super(message, null, false, false);
    }
}
