package dev.remora.domain.walk;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.CpuState;
import dev.remora.ports.MemoryAccessException;


/** Derives a thread's status from its thread state, its interpreter's GIL and what is known of its CPU. */
final class ThreadStatusReader {

    /** Exception-stack items followed at most: generators nest no deeper in practice. */
    private static final int MAX_ITEMS = 64;

    private final DebugOffsets.Thread thread;
    private final SnapshotReader reader;
    private final byte[] item = new byte[16];

    ThreadStatusReader(DebugOffsets offsets, SnapshotReader reader) {
        this.thread = offsets.thread();
        this.reader = reader;
    }

    /**
     * @return the status as {@link ThreadStatus} bits
     * @param tstate the thread state's bytes
     * @param gilHolder the interpreter's last GIL holder when the GIL is locked, else 0
     * @param cpu whether the thread is on a CPU, as far as the caller knows
     */
    int read(long tstateAddress, byte[] tstate, long gilHolder, boolean main, CpuState cpu) {
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
        if (cpu == CpuState.RUNNING) {
            status |= ThreadStatus.ON_CPU.bit();
        } else if (cpu == CpuState.UNKNOWN) {
            status |= ThreadStatus.UNKNOWN.bit();
        }
        if (nonZero(tstate, thread.currentException().orElse(-1)) || nonZero(tstate, thread.excStateValue().orElse(-1))
                || handledByAGenerator(tstateAddress, tstate)) {
            status |= ThreadStatus.HAS_EXCEPTION.bit();
        }
        if (main) {
            status |= ThreadStatus.MAIN_THREAD.bit();
        }
        return status;
    }

    /**
     * Whether an exception is being handled in a generator or coroutine the thread runs (or in a
     * function one of them called): its exception sits in the generator's own exception-stack item,
     * which {@code exc_info} points at, chained down to the thread's own {@code exc_state}.
     */
    private boolean handledByAGenerator(long tstateAddress, byte[] tstate) {
        if (thread.excInfo().isEmpty()) {
            return false;
        }
        long own = tstateAddress + thread.excStateValue().getAsLong();
        long at = Bytes.getLong(tstate, thread.excInfo().getAsLong());
        try {
            for (int i = 0; i < MAX_ITEMS && at != 0 && at != own; i++) {
                reader.read(at, item, 0, item.length);
                if (Bytes.getLong(item, 0) != 0) {
                    return true;
                }
                at = Bytes.getLong(item, 8);
            }
        } catch (MemoryAccessException e) {
            return false; // the generator went away meanwhile: it handles nothing now
        }
        return false;
    }

    private static boolean nonZero(byte[] tstate, long offset) {
        return offset >= 0 && Bytes.getLong(tstate, offset) != 0;
    }
}
