package dev.remora.domain.nativestack;

/** The bytes of one ELF image, wherever they come from: a file the target maps, or the target's memory. */
interface ImageBytes {

    long size();

    /** Reads exactly {@code length} bytes at {@code position}; the caller has bounded the range by {@link #size()}. */
    void read(long position, byte[] dst, int offset, int length) throws NativeDataException;
}
