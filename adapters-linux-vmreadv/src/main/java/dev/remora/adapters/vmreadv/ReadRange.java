package dev.remora.adapters.vmreadv;

import java.util.Objects;

/** One range of a batched read: {@code length} bytes at {@code address} into {@code buffer[offset..]}. */
public record ReadRange(long address, byte[] buffer, int offset, int length) {
    public ReadRange {
        Objects.requireNonNull(buffer, "buffer");
        Objects.checkFromIndexSize(offset, length, buffer.length);
    }

    public static ReadRange of(long address, byte[] buffer) {
        return new ReadRange(address, buffer, 0, buffer.length);
    }
}
