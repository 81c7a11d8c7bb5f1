package dev.remora.adapters.vmreadv;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

/**
 * The FFM bindings of {@code process_vm_readv} and {@code process_vm_writev}, which share one
 * signature, and the errno each call captures.
 */
final class FfmProcessVm {

    static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CALL_STATE.varHandle(MemoryLayout.PathElement.groupElement("errno"));

    private FfmProcessVm() {}

    /**
     * {@code ssize_t name(pid_t, const struct iovec *local, unsigned long, const struct iovec *remote,
     * unsigned long, unsigned long flags)}, capturing errno; null when it cannot be bound here
     * (not 64-bit Linux, or the C library does not export it).
     */
    @SuppressWarnings("restricted") // the launchers and the jar's manifest enable native access for Remora
    static MethodHandle bind(String name) {
        if (!System.getProperty("os.name", "").toLowerCase().startsWith("linux") || ADDRESS.byteSize() != 8) {
            return null;
        }
        Linker linker = Linker.nativeLinker();
        FunctionDescriptor signature = FunctionDescriptor.of(
                JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG);
        return linker.defaultLookup().find(name)
                .map(fn -> linker.downcallHandle(fn, signature, Linker.Option.captureCallState("errno")))
                .orElse(null);
    }

    /** The errno the last call through {@code callState} captured. */
    static int errno(MemorySegment callState) {
        return (int) ERRNO.get(callState, 0L);
    }
}
