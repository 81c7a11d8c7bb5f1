package dev.remora.adapters.vmreadv;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A live Linux process's memory, read with {@code process_vm_readv(2)}: no ptrace stop, no file
 * descriptor, and a whole batch of ranges per system call.
 *
 * <p>Thread-safety: safe to share, but calls are serialised by a lock because the native buffers are
 * reused between calls (allocating them per read would dominate small reads). Use one instance per
 * thread when reads must run in parallel.
 */
public final class VmReadvMemory implements RemoteMemory {

    /** Bytes moved per system call at most; larger reads are split so the reused buffer stays small. */
    static final int DEFAULT_MAX_BYTES_PER_CALL = 1 << 20;

    private final int pid;
    private final NativeReader reader;
    private final ReadvLoop loop;
    private final ReentrantLock lock = new ReentrantLock();
    private final FfmNativeWriter writer = new FfmNativeWriter();
    private final int maxBytesPerCall;
    private final long[] one = new long[1];
    private final int[] oneLength = new int[1];
    private final int[] oneOffset = new int[1];
    private boolean closed;

    VmReadvMemory(int pid, NativeReader reader, int maxBytesPerCall) {
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be positive, got " + pid);
        }
        this.pid = pid;
        this.reader = Objects.requireNonNull(reader, "reader");
        this.loop = new ReadvLoop(reader, pid, maxBytesPerCall);
        this.maxBytesPerCall = maxBytesPerCall;
    }

    /**
     * Reads the memory of process {@code pid}. Does not check that the process exists; reads of a
     * missing process fail with {@link MemoryAccessException.ProcessGone}.
     *
     * @throws UnsupportedOperationException when {@code process_vm_readv} cannot be called here
     */
    public static VmReadvMemory open(int pid) {
        return open(pid, NativeBinding.ffm);
    }

    /**
     * As {@link #open(int)}, calling {@code process_vm_readv} through {@code binding}.
     *
     * @throws UnsupportedOperationException when the binding cannot call {@code process_vm_readv} here
     */
    public static VmReadvMemory open(int pid, NativeBinding binding) {
        Objects.requireNonNull(binding, "binding");
        if (pid <= 0) {
            throw new IllegalArgumentException("pid must be positive, got " + pid);
        }
        return new VmReadvMemory(pid, binding.create(), DEFAULT_MAX_BYTES_PER_CALL);
    }

    /**
     * Whether {@link #open(int)} can work on this platform (64-bit Linux with {@code process_vm_readv});
     * see {@link NativeBinding#isSupported()} for the other bindings.
     */
    public static boolean isSupported() {
        return NativeBinding.ffm.isSupported();
    }

    public int pid() {
        return pid;
    }

    @Override
    public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
        Objects.checkFromIndexSize(offset, length, dst.length);
        if (length == 0) {
            return;
        }
        if (length <= maxBytesPerCall && readWhole(address, dst, offset, length)) {
            return;
        }
        // The slow path names the failure.
        RangeOutcome outcome = readBatch(List.of(new ReadRange(address, dst, offset, length))).getFirst();
        switch (outcome) {
            case RangeOutcome.Complete c -> { }
            case RangeOutcome.Partial p -> throw p.cause();
            case RangeOutcome.Failed f -> throw f.cause();
        }
    }

    /** One range through the allocation-free path; false when it did not arrive whole. */
    private boolean readWhole(long address, byte[] dst, int offset, int length) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("memory of process " + pid + " is closed");
            }
            one[0] = address;
            oneLength[0] = length;
            oneOffset[0] = offset;
            return reader.readv(pid, one, oneLength, dst, oneOffset, 0, 1) == length;
        } catch (ErrnoException e) {
            return false;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int readPrefix(long[] addresses, int[] lengths, byte[] dst, int[] dstOffsets, int count) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("memory of process " + pid + " is closed");
            }
            int done = 0;
            while (done < count) {
                int batch = Math.min(count - done, NativeReader.IOV_MAX);
                long transferred;
                try {
                    transferred = reader.readv(pid, addresses, lengths, dst, dstOffsets, done, batch);
                } catch (ErrnoException e) {
                    return done;
                }
                int whole = 0;
                for (long left = transferred; whole < batch && lengths[done + whole] <= left; whole++) {
                    left -= lengths[done + whole];
                }
                done += whole;
                if (whole < batch) {
                    return done;
                }
            }
            return done;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Reads several ranges in as few calls as the kernel allows; every range gets an outcome, and a
     * failure of one range does not hide what the others delivered.
     */
    public List<RangeOutcome> readBatch(List<ReadRange> ranges) {
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("memory of process " + pid + " is closed");
            }
            return loop.run(ranges);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean writable() {
        return FfmNativeWriter.isSupported();
    }

    /** One {@code process_vm_writev}, whichever binding reads: writes are rare and small. */
    @Override
    public void write(long address, byte[] src, int offset, int length) throws MemoryAccessException {
        Objects.checkFromIndexSize(offset, length, src.length);
        if (length == 0) {
            return;
        }
        lock.lock();
        try {
            if (closed) {
                throw new IllegalStateException("memory of process " + pid + " is closed");
            }
            long written = 0;
            try {
                while (written < length) {
                    int chunk = (int) Math.min(length - written, FfmNativeWriter.MAX_BYTES);
                    written += writer.write(pid, address + written, src, offset + (int) written, chunk);
                }
            } catch (ErrnoException e) {
                throw Errno.toException(e.errno(), pid, address + written);
            }
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String backendName() {
        return "vmreadv";
    }

    @Override
    public void close() {
        lock.lock();
        try {
            if (!closed) {
                closed = true;
                reader.close();
                writer.close();
            }
        } finally {
            lock.unlock();
        }
    }
}
