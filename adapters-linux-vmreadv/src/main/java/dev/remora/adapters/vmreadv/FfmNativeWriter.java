package dev.remora.adapters.vmreadv;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@code process_vm_writev} over the JDK's foreign function API, for the few small writes a user can
 * ask for (a marker the target keeps for its profiler). Native memory is allocated on first use and
 * reused; not thread-safe, the owner serialises calls.
 */
final class FfmNativeWriter implements AutoCloseable {

    /** Writes are a few words; a larger one is refused rather than buffered. */
    static final int MAX_BYTES = 4096;

    private static final MethodHandle PROCESS_VM_WRITEV = FfmProcessVm.bind("process_vm_writev");

    private Arena arena;
    private MemorySegment localIov;
    private MemorySegment remoteIov;
    private MemorySegment callState;
    private MemorySegment data;

    static boolean isSupported() {
        return PROCESS_VM_WRITEV != null;
    }

    /**
     * Writes {@code src[offset, offset + length)} at {@code address} of process {@code pid}.
     *
     * @return the bytes written (fewer when the range runs into unmapped or read-only memory)
     * @throws ErrnoException when nothing was written
     */
    long write(int pid, long address, byte[] src, int offset, int length) throws ErrnoException {
        if (PROCESS_VM_WRITEV == null) {
            throw new ErrnoException(Errno.ENOSYS);
        }
        if (length <= 0 || length > MAX_BYTES) {
            throw new IllegalArgumentException("between 1 and " + MAX_BYTES + " bytes per write, got " + length);
        }
        if (arena == null) {
            arena = Arena.ofShared();
            localIov = arena.allocate(16, 8);
            remoteIov = arena.allocate(16, 8);
            callState = arena.allocate(FfmProcessVm.CALL_STATE);
            data = arena.allocate(MAX_BYTES, 16);
        }
        MemorySegment.copy(src, offset, data, JAVA_BYTE, 0, length);
        localIov.set(JAVA_LONG, 0, data.address());
        localIov.set(JAVA_LONG, 8, length);
        remoteIov.set(JAVA_LONG, 0, address);
        remoteIov.set(JAVA_LONG, 8, length);
        long written;
        try {
            written = (long) PROCESS_VM_WRITEV.invokeExact(callState, pid, localIov, 1L, remoteIov, 1L, 0L);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("process_vm_writev downcall failed", t);
        }
        if (written <= 0) {
            throw new ErrnoException(written < 0 ? FfmProcessVm.errno(callState) : Errno.EFAULT);
        }
        return written;
    }

    @Override
    public void close() {
        if (arena != null) {
            arena.close();
            arena = null;
        }
    }
}
