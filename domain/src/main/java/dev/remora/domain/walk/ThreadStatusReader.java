package dev.remora.domain.walk;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.CpuState;
import dev.remora.ports.ProcessImage;


/** Derives a thread's status from its thread state, its interpreter's GIL and the OS. */
final class ThreadStatusReader {

    private final DebugOffsets.Thread thread;
    private final ProcessImage image;

    ThreadStatusReader(DebugOffsets offsets, ProcessImage image) {
        this.thread = offsets.thread();
        this.image = image;
    }

    /**
     * @return the status as {@link ThreadStatus} bits
     * @param tstate the thread state's bytes
     * @param gilHolder the interpreter's last GIL holder when the GIL is locked, else 0
     */
    int read(long tstateAddress, byte[] tstate, long gilHolder, boolean main, boolean cpuState) {
        int status = 0;
        // 3.15 exports holds_gil; before it, the holder of a locked GIL is the one.
        boolean hasGil = thread.holdsGil().isPresent()
                ? Bytes.getInt(tstate, thread.holdsGil().getAsLong()) != 0
                : gilHolder != 0 && gilHolder == tstateAddress;
        if (hasGil) {
            status |= ThreadStatus.HAS_GIL.bit();
        } else if (thread.gilRequested().isPresent() && Bytes.getInt(tstate, thread.gilRequested().getAsLong()) != 0) {
            status |= ThreadStatus.GIL_REQUESTED.bit();
        }
        long nativeId = Bytes.getLong(tstate, thread.nativeThreadId());
        CpuState cpu = cpuState ? image.cpuState(nativeId) : CpuState.UNKNOWN;
        if (cpu == CpuState.RUNNING) {
            status |= ThreadStatus.ON_CPU.bit();
        } else if (cpu == CpuState.UNKNOWN) {
            status |= ThreadStatus.UNKNOWN.bit();
        }
        if (nonZero(tstate, thread.currentException().orElse(-1)) || nonZero(tstate, thread.excStateValue().orElse(-1))) {
            status |= ThreadStatus.HAS_EXCEPTION.bit();
        }
        if (main) {
            status |= ThreadStatus.MAIN_THREAD.bit();
        }
        return status;
    }

    private static boolean nonZero(byte[] tstate, long offset) {
        return offset >= 0 && Bytes.getLong(tstate, offset) != 0;
    }
}
