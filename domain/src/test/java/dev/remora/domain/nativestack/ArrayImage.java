package dev.remora.domain.nativestack;

import java.util.Objects;

/** An ELF image held in a byte array: a file's bytes, or a damaged copy of them. */
record ArrayImage(byte[] bytes) implements ImageBytes {

    @Override
    public long size() {
        return bytes.length;
    }

    @Override
    public void read(long position, byte[] dst, int offset, int length) throws NativeDataException {
        Objects.checkFromIndexSize(position, length, bytes.length);
        System.arraycopy(bytes, (int) position, dst, offset, length);
    }
}
