package dev.remora.domain.discovery;

import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.util.concurrent.locks.LockSupport;

/**
 * Checks a layout that came from a generated table, not from the target, against the live target
 * before anything is walked with it: the first thread state of the newest interpreter must lead back
 * to that interpreter and head its list. A patch release that moved a field fails here, with the
 * version named, instead of giving garbage stacks.
 */
final class LayoutCheck {

    private static final int ATTEMPTS = 16;
    private static final long PAUSE_NANOS = 1_000_000;

    private final RemoteMemory memory;
    private final int pid;
    private final DebugOffsets offsets;

    LayoutCheck(RemoteMemory memory, int pid, DebugOffsets offsets) {
        this.memory = memory;
        this.pid = pid;
        this.offsets = offsets;
    }

    /**
     * @throws InspectionException.UnsupportedVersion when the layout does not fit, in every one of a few
     *     readings (a thread starting or ending leaves the list half changed for a moment)
     */
    void check(long interpreter) throws InspectionException {
        String misfit = null;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            misfit = misfit(interpreter);
            if (misfit == null || !memory.changes()) {
                break;
            }
            LockSupport.parkNanos(PAUSE_NANOS);
        }
        if (misfit != null) {
            throw mismatch(misfit);
        }
    }

    /** What does not fit, or null. */
    private String misfit(long interpreter) throws InspectionException {
        try {
            return threadListMisfit(interpreter);
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            return e.getMessage();
        } catch (MemoryAccessException e) {
            throw Failures.from(e, pid);
        }
    }

    private String threadListMisfit(long interpreter) throws MemoryAccessException {
        DebugOffsets.Thread to = offsets.thread();
        long head = readLong(interpreter + offsets.interpreter().threadsHead());
        if (head == 0) {
            return null; // no thread yet: nothing to check against, and nothing to walk
        }
        if (readLong(head + to.interp()) != interpreter) {
            return "its first thread state's interpreter pointer does not lead back to the interpreter";
        }
        if (readLong(head + to.prev()) != 0) {
            return "its first thread state has a previous one";
        }
        long next = readLong(head + to.next());
        if (next != 0 && readLong(next + to.interp()) != interpreter) {
            return "its second thread state's interpreter pointer does not lead back to the interpreter";
        }
        return null;
    }

    private InspectionException mismatch(String what) {
        String table = offsets.layout().headers().map(h -> " (made from " + h.fromRelease() + "'s headers)").orElse("");
        return new InspectionException.UnsupportedVersion("process %d runs CPython %s, whose memory does not match the %s layout%s: %s"
                .formatted(pid, offsets.version(), offsets.layout().name(), table, what));
    }

    private long readLong(long address) throws MemoryAccessException {
        byte[] b = new byte[8];
        memory.read(address, b, 0, 8);
        return Bytes.getLong(b, 0);
    }
}
