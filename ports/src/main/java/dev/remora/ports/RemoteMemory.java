package dev.remora.ports;

/**
 * Read access to another process's address space, live or recorded.
 * Implementations must be safe for any address: bad addresses fail, they never crash the reader.
 */
public interface RemoteMemory extends AutoCloseable {

    /** Reads exactly {@code length} bytes at {@code address} into {@code dst[offset..]}. */
    void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException;

    /**
     * Reads {@code count} ranges, in one round trip where the backend can, without allocating: range
     * {@code i} is {@code lengths[i]} bytes at {@code addresses[i]}, copied into {@code dst} at
     * {@code dstOffsets[i]}. Stops at the first range that cannot be read whole.
     *
     * @return how many ranges, from the first, arrived whole
     */
    default int readPrefix(long[] addresses, int[] lengths, byte[] dst, int[] dstOffsets, int count) {
        for (int i = 0; i < count; i++) {
            try {
                read(addresses[i], dst, dstOffsets[i], lengths[i]);
            } catch (MemoryAccessException e) {
                return i;
            }
        }
        return count;
    }

    /**
     * Whether the memory can change between two reads: a running process's can, a core file's
     * cannot. A reader reads again what moved under it only where it can.
     */
    default boolean changes() {
        return true;
    }

    /** Whether {@link #write} can work: only live processes, and only where the backend supports it. */
    default boolean writable() {
        return false;
    }

    /**
     * Writes {@code length} bytes from {@code src[offset..]} into the target at {@code address}. Used
     * only by features a user turns on to have the target keep a marker for the reader.
     *
     * @throws UnsupportedOperationException when {@link #writable()} is false
     */
    default void write(long address, byte[] src, int offset, int length) throws MemoryAccessException {
        throw new UnsupportedOperationException(backendName() + " cannot write to the target");
    }

    /** Short name of the mechanism, reported to users ("vmreadv", "procmem", "core"). */
    String backendName();

    @Override
    default void close() {}
}
