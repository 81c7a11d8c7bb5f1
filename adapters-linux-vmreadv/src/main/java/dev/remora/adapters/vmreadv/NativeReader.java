package dev.remora.adapters.vmreadv;

import java.util.List;

/**
 * The native side of {@code process_vm_readv}, kept behind an interface so another binding
 * (JNA, jnr-ffi) can replace the FFM one without touching the read logic.
 *
 * <p>Implementations need not be thread-safe: {@link VmReadvMemory} serialises every call.
 */
interface NativeReader extends AutoCloseable {

    /** The kernel's limit on iovecs per call ({@code UIO_MAXIOV}). */
    int IOV_MAX = 1024;

    /**
     * One {@code process_vm_readv} call with one remote iovec per range and matching local buffers.
     * The kernel fills ranges in order and stops at the first remote range it cannot read, so the
     * result is a prefix: bytes land in each range's buffer from its start.
     *
     * @param ranges at most {@link #IOV_MAX} ranges, none empty
     * @return the number of bytes transferred, counted across the ranges in order; always positive
     * @throws ErrnoException when the call transferred nothing
     */
    long readv(int pid, List<ReadRange> ranges) throws ErrnoException;

    /**
     * The same call over parallel arrays, for samplers that must not allocate: ranges
     * {@code [from, from + count)} land in {@code dst} at their offsets.
     *
     * @return the number of bytes transferred, counted across the ranges in order
     */
    default long readv(int pid, long[] addresses, int[] lengths, byte[] dst, int[] dstOffsets, int from, int count)
            throws ErrnoException {
        List<ReadRange> ranges = new java.util.ArrayList<>(count);
        for (int i = from; i < from + count; i++) {
            ranges.add(new ReadRange(addresses[i], dst, dstOffsets[i], lengths[i]));
        }
        return readv(pid, ranges);
    }

    @Override
    void close();
}
