package dev.remora.ports;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.Objects;

/** A file read in place with positional reads; nothing is loaded up front. */
public final class ChannelFileBytes implements FileBytes {

    private final FileChannel channel;
    private final long size;

    public ChannelFileBytes(FileChannel channel) throws IOException {
        this.channel = channel;
        this.size = channel.size();
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public int read(long position, byte[] dst, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, dst.length);
        if (position < 0) {
            throw new IllegalArgumentException("negative position " + position);
        }
        if (length == 0) {
            return 0;
        }
        return channel.read(ByteBuffer.wrap(dst, offset, length), position);
    }

    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // Nothing was written; a failed close of a read-only channel loses nothing.
        }
    }
}
