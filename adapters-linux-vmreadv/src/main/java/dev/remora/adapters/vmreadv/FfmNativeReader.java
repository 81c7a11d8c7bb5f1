package dev.remora.adapters.vmreadv;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * {@link NativeReader} over the JDK's foreign function API. Besides the buffers {@link IovecReader}
 * describes it keeps the errno capture slot. The arenas are shared only so that whichever thread
 * holds the caller's lock may use them.
 */
final class FfmNativeReader extends IovecReader {

    /** Null when the function cannot be bound here; {@link #create()} reports why. */
    private static final MethodHandle PROCESS_VM_READV = FfmProcessVm.bind("process_vm_readv");

    private final Arena fixedArena = Arena.ofShared();
    private final MemorySegment localIov = fixedArena.allocate(IOVEC_BYTES * IOV_MAX, 8);
    private final MemorySegment remoteIov = fixedArena.allocate(IOVEC_BYTES * IOV_MAX, 8);
    private final MemorySegment callState = fixedArena.allocate(FfmProcessVm.CALL_STATE);
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
        return FfmProcessVm.errno(callState);
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
