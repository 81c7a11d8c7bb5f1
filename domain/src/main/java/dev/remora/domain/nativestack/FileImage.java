package dev.remora.domain.nativestack;

import dev.remora.ports.FileBytes;

import java.io.IOException;

/** An ELF image read from a file the target maps. */
record FileImage(FileBytes file) implements ImageBytes {

    @Override
    public long size() {
        return file.size();
    }

    @Override
    public void read(long position, byte[] dst, int offset, int length) throws NativeDataException {
        int done = 0;
        try {
            while (done < length) {
                int n = file.read(position + done, dst, offset + done, length - done);
                if (n <= 0) {
                    throw new NativeDataException("file ends before 0x%x".formatted(position + length));
                }
                done += n;
            }
        } catch (IOException e) {
            throw new NativeDataException("cannot read the file: " + e.getMessage());
        }
    }
}
