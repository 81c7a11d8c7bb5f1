package dev.remora.adapters.vmreadv;

import com.sun.jna.Memory;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;

/**
 * {@link NativeReader} over JNA's direct mapping: a static native method bound once, with no
 * per-call argument conversion beyond reading the Pointers' addresses. JNA keeps each thread's
 * errno after every call, which {@link Native#getLastError()} returns.
 */
final class JnaNativeReader extends IovecReader {

    /** Why the function could not be bound here; null once it is. */
    private static final String UNAVAILABLE = register();

    private final Memory localIov = new Memory(IOVEC_BYTES * IOV_MAX);
    private final Memory remoteIov = new Memory(IOVEC_BYTES * IOV_MAX);
    private Memory data;

    private JnaNativeReader() {}

    /** ssize_t process_vm_readv(pid_t, const struct iovec *, unsigned long, const struct iovec *, unsigned long,
     *  unsigned long); bound by {@link #register()}. */
    private static native long process_vm_readv(int pid, Pointer localIov, long localCount,
                                                Pointer remoteIov, long remoteCount, long flags);

    static boolean isSupported() {
        return UNAVAILABLE == null;
    }

    static JnaNativeReader create() {
        if (UNAVAILABLE != null) {
            throw new UnsupportedOperationException(UNAVAILABLE);
        }
        return new JnaNativeReader();
    }

    private static String register() {
        try {
            if (!Platform.isLinux() || !Platform.is64Bit()) {
                return "process_vm_readv needs 64-bit Linux";
            }
            // "c" on Linux is the C library the JVM already has loaded.
            Native.register(JnaNativeReader.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
            return null;
        } catch (LinkageError e) {
            return "JNA cannot bind process_vm_readv: " + NativeBinding.firstLine(e);
        }
    }

    @Override
    long replaceData(long bytes) {
        if (data != null) {
            data.close();
            data = null;
        }
        data = new Memory(bytes);
        return Pointer.nativeValue(data);
    }

    @Override
    void putIovec(int index, long local, long remote, long length) {
        long slot = index * IOVEC_BYTES;
        localIov.setLong(slot, local);
        localIov.setLong(slot + 8, length);
        remoteIov.setLong(slot, remote);
        remoteIov.setLong(slot + 8, length);
    }

    @Override
    long call(int pid, int count) {
        return process_vm_readv(pid, localIov, count, remoteIov, count, 0L);
    }

    @Override
    int errno() {
        return Native.getLastError();
    }

    @Override
    void copyOut(long offset, byte[] dst, int dstOffset, int length) {
        data.read(offset, dst, dstOffset, length);
    }

    @Override
    void release() {
        if (data != null) {
            data.close();
        }
        localIov.close();
        remoteIov.close();
    }
}
