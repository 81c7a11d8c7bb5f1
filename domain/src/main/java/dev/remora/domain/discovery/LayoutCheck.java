package dev.remora.domain.discovery;

import dev.remora.domain.Failures;
import dev.remora.domain.InspectionException;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

/**
 * Checks a layout that came from a generated table, not from the target, against the live target
 * before anything is walked with it: the first thread state of the newest interpreter must lead back
 * to that interpreter and head its list. A patch release that moved a field fails here, with the
 * version named, instead of giving garbage stacks.
 */
final class LayoutCheck {

    private final RemoteMemory memory;
    private final int pid;
    private final DebugOffsets offsets;

    LayoutCheck(RemoteMemory memory, int pid, DebugOffsets offsets) {
        this.memory = memory;
        this.pid = pid;
        this.offsets = offsets;
    }

    void check(long interpreter) throws InspectionException {
        DebugOffsets.Thread to = offsets.thread();
        long head = readLong(interpreter + offsets.interpreter().threadsHead());
        if (head == 0) {
            return; // no thread yet: nothing to check against, and nothing to walk
        }
        if (readLong(head + to.interp()) != interpreter) {
            throw mismatch("its first thread state's interpreter pointer does not lead back to the interpreter");
        }
        if (readLong(head + to.prev()) != 0) {
            throw mismatch("its first thread state has a previous one");
        }
        long next = readLong(head + to.next());
        if (next != 0 && readLong(next + to.interp()) != interpreter) {
            throw mismatch("its second thread state's interpreter pointer does not lead back to the interpreter");
        }
    }

    private InspectionException mismatch(String what) {
        String table = offsets.layout().headers().map(h -> " (made from " + h.fromRelease() + "'s headers)").orElse("");
        return new InspectionException.UnsupportedVersion("process %d runs CPython %s, whose memory does not match the %s layout%s: %s"
                .formatted(pid, offsets.version(), offsets.layout().name(), table, what));
    }

    private long readLong(long address) throws InspectionException {
        byte[] b = new byte[8];
        try {
            memory.read(address, b, 0, 8);
        } catch (MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
            throw mismatch("0x%x is not readable".formatted(address));
        } catch (MemoryAccessException e) {
            throw Failures.from(e, pid);
        }
        return Bytes.getLong(b, 0);
    }
}
