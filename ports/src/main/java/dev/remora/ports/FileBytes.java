package dev.remora.ports;

import java.io.IOException;

/** Random access to a file the target maps or names, opened as the target sees it. */
public interface FileBytes extends AutoCloseable {

    long size();

    /** Reads up to {@code length} bytes at {@code position}; returns how many were read, -1 at end of file. */
    int read(long position, byte[] dst, int offset, int length) throws IOException;

    @Override
    void close();
}
