package dev.remora.adapters.vmreadv;

import java.util.List;
import java.util.Objects;

/**
 * The binding-neutral half of a {@link NativeReader}: checks a call, lays each range out in the
 * iovec arrays over one data buffer, and copies the transferred prefix back to the caller's arrays.
 * A subclass owns the native memory and the call itself.
 *
 * <p>All native memory is allocated once and reused: two iovec arrays of {@link #IOV_MAX} entries
 * (the subclass's) and a data buffer that only grows, to the largest call seen. Not thread-safe; the
 * caller serialises calls.
 */
abstract class IovecReader implements NativeReader {

    /** struct iovec on LP64: void *iov_base; size_t iov_len. */
    static final long IOVEC_BYTES = 16;
    static final long INITIAL_DATA_BYTES = 64 * 1024;

    private long capacity;
    private long data;
    private boolean closed;

    /** Frees the current data buffer, if any, and returns the address of a new one of {@code bytes}. */
    abstract long replaceData(long bytes);

    /** Sets iovec {@code index} of the local array to {@code local} and of the remote one to {@code remote}. */
    abstract void putIovec(int index, long local, long remote, long length);

    /** {@code process_vm_readv(pid, local, count, remote, count, 0)}. */
    abstract long call(int pid, int count);

    /** The errno the last {@link #call} on this thread left. */
    abstract int errno();

    /** Copies {@code length} bytes from {@code offset} in the data buffer to {@code dst}. */
    abstract void copyOut(long offset, byte[] dst, int dstOffset, int length);

    /** Frees every native allocation; called once. */
    abstract void release();

    @Override
    public final long readv(int pid, List<ReadRange> ranges) throws ErrnoException {
        int count = ranges.size();
        checkCall(count);
        long total = 0;
        for (ReadRange r : ranges) {
            total += r.length();
        }
        long base = ensureData(total);
        long cursor = 0;
        for (int i = 0; i < count; i++) {
            ReadRange r = ranges.get(i);
            putIovec(i, base + cursor, r.address(), r.length());
            cursor += r.length();
        }
        long transferred = transfer(pid, count);
        if (transferred == 0) {
            // Not expected for non-empty ranges; treat as a fault at the first range so callers progress.
            throw new ErrnoException(Errno.EFAULT);
        }
        long offset = 0;
        for (int i = 0; i < count && offset < transferred; i++) {
            ReadRange r = ranges.get(i);
            copyOut(offset, r.buffer(), r.offset(), (int) Math.min(r.length(), transferred - offset));
            offset += r.length();
        }
        return transferred;
    }

    @Override
    public final long readv(int pid, long[] addresses, int[] lengths, byte[] dst, int[] dstOffsets, int from, int count)
            throws ErrnoException {
        checkCall(count);
        Objects.checkFromIndexSize(from, count, addresses.length);
        Objects.checkFromIndexSize(from, count, lengths.length);
        Objects.checkFromIndexSize(from, count, dstOffsets.length);
        long total = 0;
        for (int i = from; i < from + count; i++) {
            // Checked before the call: some bindings copy out without bounds checks of their own.
            Objects.checkFromIndexSize(dstOffsets[i], lengths[i], dst.length);
            total += lengths[i];
        }
        long base = ensureData(total);
        long cursor = 0;
        for (int i = 0; i < count; i++) {
            int length = lengths[from + i];
            putIovec(i, base + cursor, addresses[from + i], length);
            cursor += length;
        }
        long transferred = transfer(pid, count);
        long offset = 0;
        for (int i = from; i < from + count && offset < transferred; i++) {
            copyOut(offset, dst, dstOffsets[i], (int) Math.min(lengths[i], transferred - offset));
            offset += lengths[i];
        }
        return transferred;
    }

    private void checkCall(int count) {
        if (count <= 0 || count > IOV_MAX) {
            throw new IllegalArgumentException("between 1 and " + IOV_MAX + " ranges per call, got " + count);
        }
        if (closed) {
            throw new IllegalStateException("reader is closed");
        }
    }

    private long transfer(int pid, int count) throws ErrnoException {
        long transferred = call(pid, count);
        if (transferred < 0) {
            throw new ErrnoException(errno());
        }
        return transferred;
    }

    private long ensureData(long bytes) {
        if (bytes > capacity) {
            long grown = Math.max(Math.max(bytes, INITIAL_DATA_BYTES), capacity * 2);
            capacity = 0; // the old buffer is freed first: if allocating fails, nothing is left to reuse
            data = replaceData(grown);
            capacity = grown;
        }
        return data;
    }

    @Override
    public final void close() {
        if (!closed) {
            closed = true;
            release();
        }
    }
}
