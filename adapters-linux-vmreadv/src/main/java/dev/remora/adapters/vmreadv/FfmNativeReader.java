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
 * {@link NativeReader} over the JDK's foreign function API. Besides the buffers {@link IovecReader}
 * describes it keeps the errno capture slot. The arenas are shared only so that whichever thread
 * holds the caller's lock may use them.
 */
final class FfmNativeReader extends IovecReader {

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

    private FfmNativeReader() {}

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
    long replaceData(long bytes) {
        if (dataArena != null) {
            dataArena.close();
            dataArena = null;
        }
        Arena arena = Arena.ofShared();
        data = arena.allocate(bytes, 16);
        dataArena = arena;
        return data.address();
    }

    @Override
    void putIovec(int index, long local, long remote, long length) {
        long slot = index * IOVEC_BYTES;
        localIov.set(JAVA_LONG, slot, local);
        localIov.set(JAVA_LONG, slot + 8, length);
        remoteIov.set(JAVA_LONG, slot, remote);
        remoteIov.set(JAVA_LONG, slot + 8, length);
    }

    @Override
    long call(int pid, int count) {
        try {
            return (long) PROCESS_VM_READV.invokeExact(callState, pid, localIov, (long) count, remoteIov, (long) count, 0L);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("process_vm_readv downcall failed", t);
        }
    }

    @Override
    int errno() {
        return (int) ERRNO.get(callState, 0L);
    }

    @Override
    void copyOut(long offset, byte[] dst, int dstOffset, int length) {
        MemorySegment.copy(data, JAVA_BYTE, offset, dst, dstOffset, length);
    }

    @Override
    void release() {
        if (dataArena != null) {
            dataArena.close();
        }
        fixedArena.close();
    }
}
