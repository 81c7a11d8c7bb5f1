package dev.remora.adapters.vmreadv;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * {@code process_vm_writev} over the JDK's foreign function API, for the few small writes a user can
 * ask for (a marker the target keeps for its profiler). Native memory is allocated on first use and
 * reused; not thread-safe, the owner serialises calls.
 */
final class FfmNativeWriter implements AutoCloseable {

    /** Writes are a few words; a larger one is refused rather than buffered. */
    static final int MAX_BYTES = 4096;

    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final MethodHandle PROCESS_VM_WRITEV = bind();

    private Arena arena;
    private MemorySegment localIov;
    private MemorySegment remoteIov;
    private MemorySegment callState;
    private MemorySegment data;

    static boolean isSupported() {
        return PROCESS_VM_WRITEV != null;
    }

    private static MethodHandle bind() {
        if (!System.getProperty("os.name", "").toLowerCase().startsWith("linux") || ADDRESS.byteSize() != 8) {
            return null;
        }
        Linker linker = Linker.nativeLinker();
        // ssize_t process_vm_writev(pid_t, const struct iovec *local, unsigned long, const struct iovec *remote,
        //                           unsigned long, unsigned long)
        FunctionDescriptor signature = FunctionDescriptor.of(
                JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG);
        return linker.defaultLookup().find("process_vm_writev")
                .map(fn -> linker.downcallHandle(fn, signature, Linker.Option.captureCallState("errno")))
                .orElse(null);
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
            callState = arena.allocate(CALL_STATE);
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
            throw new ErrnoException(written < 0 ? (int) ERRNO.get(callState, 0L) : Errno.EFAULT);
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
