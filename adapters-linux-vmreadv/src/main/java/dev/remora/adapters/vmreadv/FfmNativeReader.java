package dev.remora.adapters.vmreadv;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.remora.ports.ReadRange;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;
import java.util.List;

/**
 * {@link NativeReader} over the JDK's foreign function API.
 *
 * <p>All native memory is allocated once and reused: two iovec arrays of {@link #IOV_MAX} entries, the
 * errno capture slot, and a data buffer that only grows (to the largest call seen). Not thread-safe;
 * the caller serialises calls. The arenas are shared only so that whichever thread holds the caller's
 * lock may use them.
 */
final class FfmNativeReader implements NativeReader {

    /** struct iovec on LP64: void *iov_base; size_t iov_len. */
    private static final long IOVEC_BYTES = 16;
    private static final long INITIAL_DATA_BYTES = 64 * 1024;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    /** Null when the function cannot be bound here; {@link #create()} reports why. */
    private static final MethodHandle PROCESS_VM_READV = bind();

    private final Arena fixedArena = Arena.ofShared();
    private final MemorySegment localIov = fixedArena.allocate(IOVEC_BYTES * IOV_MAX, 8);
    private final MemorySegment remoteIov = fixedArena.allocate(IOVEC_BYTES * IOV_MAX, 8);
    private final MemorySegment callState = fixedArena.allocate(CALL_STATE);
    private Arena dataArena;
    private MemorySegment data;
    private boolean closed;

    private FfmNativeReader() {
        dataArena = Arena.ofShared();
        data = dataArena.allocate(INITIAL_DATA_BYTES, 16);
    }

    static boolean isSupported() {
        return PROCESS_VM_READV != null;
    }

    static FfmNativeReader create() {
        if (PROCESS_VM_READV == null) {
            throw new UnsupportedOperationException(
                    "process_vm_readv is not available: it needs 64-bit Linux and a C library that exports it");
        }
        return new FfmNativeReader();
    }

    private static MethodHandle bind() {
        if (!System.getProperty("os.name", "").toLowerCase().startsWith("linux") || ADDRESS.byteSize() != 8) {
            return null;
        }
        Linker linker = Linker.nativeLinker();
        // ssize_t process_vm_readv(pid_t, const struct iovec *, unsigned long, const struct iovec *,
        //                          unsigned long, unsigned long)
        FunctionDescriptor signature = FunctionDescriptor.of(
                JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG);
        return linker.defaultLookup().find("process_vm_readv")
                .map(fn -> linker.downcallHandle(fn, signature, Linker.Option.captureCallState("errno")))
                .orElse(null);
    }

    @Override
    public long readv(int pid, List<ReadRange> ranges) throws ErrnoException {
        int count = ranges.size();
        if (count == 0 || count > IOV_MAX) {
            throw new IllegalArgumentException("between 1 and " + IOV_MAX + " ranges per call, got " + count);
        }
        if (closed) {
            throw new IllegalStateException("reader is closed");
        }
        long total = 0;
        for (ReadRange r : ranges) {
            total += r.length();
        }
        ensureCapacity(total);

        long cursor = data.address();
        for (int i = 0; i < count; i++) {
            ReadRange r = ranges.get(i);
            long slot = i * IOVEC_BYTES;
            localIov.set(JAVA_LONG, slot, cursor);
            localIov.set(JAVA_LONG, slot + 8, r.length());
            remoteIov.set(JAVA_LONG, slot, r.address());
            remoteIov.set(JAVA_LONG, slot + 8, r.length());
            cursor += r.length();
        }

        long transferred = call(pid, count);
        if (transferred < 0) {
            throw new ErrnoException((int) ERRNO.get(callState, 0L));
        }
        if (transferred == 0) {
            // Not expected for non-empty ranges; treat as a fault at the first range so callers progress.
            throw new ErrnoException(Errno.EFAULT);
        }
        copyOut(ranges, transferred);
        return transferred;
    }

    @Override
    public long readv(int pid, long[] addresses, int[] lengths, byte[] dst, int[] dstOffsets, int from, int count)
            throws ErrnoException {
        if (count <= 0 || count > IOV_MAX) {
            throw new IllegalArgumentException("between 1 and " + IOV_MAX + " ranges per call, got " + count);
        }
        if (closed) {
            throw new IllegalStateException("reader is closed");
        }
        long total = 0;
        for (int i = from; i < from + count; i++) {
            total += lengths[i];
        }
        ensureCapacity(total);
        long cursor = data.address();
        for (int i = 0; i < count; i++) {
            long slot = i * IOVEC_BYTES;
            int length = lengths[from + i];
            localIov.set(JAVA_LONG, slot, cursor);
            localIov.set(JAVA_LONG, slot + 8, length);
            remoteIov.set(JAVA_LONG, slot, addresses[from + i]);
            remoteIov.set(JAVA_LONG, slot + 8, length);
            cursor += length;
        }
        long transferred = call(pid, count);
        if (transferred < 0) {
            throw new ErrnoException((int) ERRNO.get(callState, 0L));
        }
        long offset = 0;
        for (int i = from; i < from + count && offset < transferred; i++) {
            int take = (int) Math.min(lengths[i], transferred - offset);
            MemorySegment.copy(data, JAVA_BYTE, offset, dst, dstOffsets[i], take);
            offset += lengths[i];
        }
        return transferred;
    }

    private long call(int pid, int count) {
        try {
            return (long) PROCESS_VM_READV.invokeExact(callState, pid, localIov, (long) count, remoteIov, (long) count, 0L);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("process_vm_readv downcall failed", t);
        }
    }

    private void copyOut(List<ReadRange> ranges, long transferred) {
        long remaining = transferred;
        long offset = 0;
        for (int i = 0; i < ranges.size() && remaining > 0; i++) {
            ReadRange r = ranges.get(i);
            int take = (int) Math.min(r.length(), remaining);
            MemorySegment.copy(data, JAVA_BYTE, offset, r.buffer(), r.offset(), take);
            offset += r.length();
            remaining -= take;
        }
    }

    private void ensureCapacity(long bytes) {
        if (data.byteSize() >= bytes) {
            return;
        }
        long capacity = Math.max(bytes, data.byteSize() * 2);
        dataArena.close();
        dataArena = Arena.ofShared();
        data = dataArena.allocate(capacity, 16);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        dataArena.close();
        fixedArena.close();
    }
}
