package dev.remora.domain.asyncio;

import dev.remora.domain.InspectionException;
import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.util.ArrayList;
import java.util.List;

/** The interpreters of a target and their threads, in the target's list order (newest first). */
final class ThreadStates {

    private static final int MAX_INTERPRETERS = 4096;
    private static final int MAX_THREADS = 1 << 16;

    /** One thread state, with the interpreter it belongs to and its OS thread id. */
    record ThreadRef(long interpreter, long address, long nativeId) {}

    /** @param threads every interpreter's threads, the interpreters in list order */
    record Listing(List<Long> interpreters, List<ThreadRef> threads) {}

    private ThreadStates() {}

    static Listing list(SnapshotReader reader, DebugOffsets offsets, long runtime, int pid)
            throws MemoryAccessException, InconsistentGraph, InspectionException {
        long head = reader.readLong(runtime + offsets.runtime().interpretersHead());
        if (head == 0) {
            throw new InspectionException.Unreadable(
                    "process %d has no Python interpreter (not started yet, or shutting down)".formatted(pid));
        }
        List<Long> interpreters = chain(reader, head, offsets.interpreter().next(), MAX_INTERPRETERS, "interpreter");
        List<ThreadRef> threads = new ArrayList<>();
        for (long interp : interpreters) {
            long first = reader.readLong(interp + offsets.interpreter().threadsHead());
            for (long t : chain(reader, first, offsets.thread().next(), MAX_THREADS, "thread")) {
                threads.add(new ThreadRef(interp, t, reader.readLong(t + offsets.thread().nativeThreadId().getAsLong())));
            }
        }
        return new Listing(interpreters, threads);
    }

    private static List<Long> chain(SnapshotReader reader, long first, long nextField, int max, String what)
            throws MemoryAccessException, InconsistentGraph {
        List<Long> nodes = new ArrayList<>();
        ChainGuard guard = new ChainGuard(max, first);
        for (long node = first; node != 0; node = reader.readLong(node + nextField)) {
            if (!AsyncContext.plausiblePointer(node)) {
                throw new InconsistentGraph("the %s list has a bad pointer 0x%x".formatted(what, node));
            }
            if (!nodes.isEmpty() && !guard.step(node)) {
                throw new InconsistentGraph(guard.tooLong() ? "the %s list is longer than %d".formatted(what, max)
                        : "the %s list loops at 0x%x".formatted(what, node));
            }
            nodes.add(node);
        }
        return nodes;
    }
}
