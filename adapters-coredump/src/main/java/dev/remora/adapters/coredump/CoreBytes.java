package dev.remora.adapters.coredump;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * The bytes of a core, mapped rather than loaded so that cores of many GiB cost no heap. Every
 * range taken from the file's own headers goes through {@link #require} first, which turns a range
 * past the end into {@link CoreFileException.Truncated} instead of an out-of-bounds access.
 */
final class CoreBytes {

    private static final ValueLayout.OfShort U16 = ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfInt U32 = ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final ValueLayout.OfLong U64 = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private final MemorySegment segment;
    private final String name;

    CoreBytes(MemorySegment segment, String name) {
        this.segment = segment;
        this.name = name;
    }

    /** The core as the user named it, for messages. */
    String name() {
        return name;
    }

    long size() {
        return segment.byteSize();
    }

    /** True when {@code [offset, offset + length)} lies inside the file; safe for any values. */
    boolean contains(long offset, long length) {
        return offset >= 0 && length >= 0 && offset <= size() && length <= size() - offset;
    }

    /** Fails as truncated unless {@code what}, {@code length} bytes at {@code offset}, is inside the file. */
    void require(long offset, long length, String what) throws CoreFileException.Truncated {
        if (!contains(offset, length)) {
            throw new CoreFileException.Truncated("%s is truncated: %s (%s bytes at offset %s) ends past its %d bytes"
                    .formatted(name, what, Long.toUnsignedString(length), Long.toUnsignedString(offset), size()));
        }
    }

    int u8(long offset) {
        return Byte.toUnsignedInt(segment.get(ValueLayout.JAVA_BYTE, offset));
    }

    int u16(long offset) {
        return Short.toUnsignedInt(segment.get(U16, offset));
    }

    long u32(long offset) {
        return Integer.toUnsignedLong(segment.get(U32, offset));
    }

    long u64(long offset) {
        return segment.get(U64, offset);
    }

    void copy(long offset, byte[] dst, int dstOffset, int length) {
        MemorySegment.copy(segment, ValueLayout.JAVA_BYTE, offset, dst, dstOffset, length);
    }
}
