package dev.remora.domain.asyncio;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Reads task objects and the tasks waiting on them; each task is read once per reading of the graph. */
final class TaskReader {

    /** Waiter sets larger than this are garbage (a set of n keeps a table of at most about 5n/3 slots). */
    static final long MAX_SET_TABLE = 1 << 16;
    private static final int SET_ENTRY = 16;
    /** {@code hash} of a set slot whose key was removed ({@code dummy}). */
    private static final long DUMMY_HASH = -1;

    private final AsyncContext context;
    private final AsyncioOffsets.Task layout;
    private final byte[] buffer;
    private final Map<Long, TaskView> read = new HashMap<>();

    TaskReader(AsyncContext context) {
        this.context = context;
        this.layout = context.asyncio().task();
        this.buffer = new byte[(int) layout.size()];
    }

    TaskView task(long address) throws MemoryAccessException, InconsistentGraph {
        TaskView known = read.get(address);
        if (known != null) {
            return known;
        }
        if (!AsyncContext.plausiblePointer(address)) {
            throw new InconsistentGraph("bad task pointer 0x%x".formatted(address));
        }
        context.reader().read(address, buffer, 0, buffer.length);
        TaskView task = decode(address);
        read.put(address, task);
        return task;
    }

    /**
     * Whether the task has been torn down or freed since this reading read it: its name or coroutine
     * is gone or another, read from the target itself, past the reading's batched copy. (Its waiters
     * may change at any time; a live task keeps its name and coroutine until it finishes.)
     */
    boolean goneSince(TaskView seen) throws MemoryAccessException {
        context.reader().readApart(seen.address(), buffer, 0, buffer.length);
        TaskView now = decode(seen.address());
        return now.tornDown() || !now.isTask() || now.name() != seen.name() || now.coro() != seen.coro();
    }

    private TaskView decode(long address) {
        var v = context.offsets().layout();
        return new TaskView(address, buffer[(int) layout.isTask()] != 0,
                v.untagStackRef(Bytes.getLong(buffer, layout.name())),
                v.untagStackRef(Bytes.getLong(buffer, layout.coro())),
                v.untagStackRef(Bytes.getLong(buffer, layout.awaitedBy())),
                buffer[(int) layout.awaitedByIsSet()] != 0);
    }

    /** The tasks waiting on {@code task}, in the order CPython lists them (a set's table order). */
    List<Long> waiters(TaskView task) throws MemoryAccessException, InconsistentGraph {
        if (task.awaitedBy() == 0) {
            return List.of();
        }
        if (!task.awaitedByIsSet()) {
            return List.of(task.awaitedBy());
        }
        return setMembers(task.awaitedBy());
    }

    /** Live keys of a set: slots with a key that is not the removed-key marker. */
    private List<Long> setMembers(long set) throws MemoryAccessException, InconsistentGraph {
        DebugOffsets.SetObject s = context.set();
        long used = context.reader().readLong(set + s.used());
        long mask = context.reader().readLong(set + s.mask());
        long table = context.reader().readLong(set + s.table());
        if (mask < 0 || mask >= MAX_SET_TABLE || Long.bitCount(mask + 1) != 1 || used < 0 || used > mask + 1
                || !AsyncContext.plausiblePointer(table)) {
            throw new InconsistentGraph("waiter set at 0x%x is malformed (used %d, mask %d)".formatted(set, used, mask));
        }
        byte[] slots = new byte[(int) (mask + 1) * SET_ENTRY];
        context.reader().read(table, slots, 0, slots.length);
        List<Long> members = new ArrayList<>();
        for (int at = 0; at < slots.length && members.size() < used; at += SET_ENTRY) {
            long key = Bytes.getLong(slots, at);
            if (key != 0 && Bytes.getLong(slots, at + 8) != DUMMY_HASH) {
                members.add(key);
            }
        }
        return members;
    }
}
