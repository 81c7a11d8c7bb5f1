package dev.remora.domain.threads;

import dev.remora.domain.InspectionException;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.util.ArrayList;
import java.util.List;

/**
 * The process step of a sample: the runtime's interpreters, and each one's thread list, read with
 * the checks and retries of {@link ThreadList}. The walk and the asyncio reader both start here.
 * Not thread-safe: it reuses its buffers from one reading to the next.
 */
public final class Interpreters {

    static final int MAX_INTERPRETERS = 4096;

    /** What a reading does with each interpreter, its fields and its threads just read. */
    public interface Visitor {
        void visit(InterpreterWindow window, Threads threads) throws MemoryAccessException, InspectionException;
    }

    /** One interpreter's threads as just read: the list, its main thread and each thread's kernel id. */
    public final class Threads {
        private long main;
        private long gilHolder;

        public int count() {
            return list.count();
        }

        public long address(int i) {
            return list.address(i);
        }

        public byte[] state(int i) {
            return list.state(i);
        }

        public long main() {
            return main;
        }

        /** The thread state holding the GIL while it is locked, else 0. */
        public long gilHolder() {
            return gilHolder;
        }

        /** The thread's kernel id: 0 when it has none yet; {@link NativeThreadIds#UNKNOWN} when 3.10's cannot be told. */
        public long nativeId(int i) throws MemoryAccessException {
            return nativeIds.of(list.state(i), reader);
        }

        /** The thread's ident: its {@code pthread_t}, as {@code threading} keys its threads. */
        public long ident(int i) {
            return Bytes.getLong(list.state(i), threadIdOffset);
        }

        /** Whether thread {@code i}, whose kernel id is {@code nativeId}, has not started yet: not a thread yet. */
        public boolean notStarted(int i, long nativeId) {
            return list.notStarted(i, nativeId);
        }
    }

    /**
     * One thread state of a {@link Listing}, with its interpreter, its OS thread id, and its ident
     * ({@code thread_id}: what {@code threading.get_ident()} returns in that thread).
     */
    public record ThreadRef(long interpreter, long address, long nativeId, long ident) {}

    /** Every interpreter, in list order, and every started thread of each, newest first. */
    public record Listing(List<Long> interpreters, List<ThreadRef> threads) {}

    private final SnapshotReader reader;
    private final int pid;
    private final long runtime;
    private final InterpreterListHead head;
    private final ChainGuard guard = new ChainGuard(MAX_INTERPRETERS, 0);
    private final InterpreterWindow window;
    private final ThreadList list;
    private final NativeThreadIds nativeIds;
    private final Threads threads = new Threads();
    private final int threadIdOffset;

    /** @param runtime the address of the target's {@code _PyRuntime} */
    public Interpreters(SnapshotReader reader, DebugOffsets offsets, long runtime, int pid) {
        this.reader = reader;
        this.pid = pid;
        this.runtime = runtime;
        this.head = new InterpreterListHead(runtime + offsets.runtime().interpretersHead());
        this.window = new InterpreterWindow(offsets);
        this.list = new ThreadList(reader, offsets, pid);
        this.nativeIds = new NativeThreadIds(offsets.thread(), pid);
        this.threadIdOffset = (int) offsets.thread().threadId();
    }

    /**
     * Reads every interpreter and its threads, in list order, handing each to {@code visitor} as it
     * goes.
     *
     * @throws InspectionException.Unreadable when the process has no interpreter, or a thread list kept changing
     * @throws InspectionException.CorruptTarget when a list loops or never ends
     */
    public void read(Visitor visitor) throws MemoryAccessException, InspectionException {
        boolean done = false;
        try {
            long first = head.forWalk(reader);
            if (first == 0) {
                throw new InspectionException.Unreadable(
                        "process %d has no Python interpreter (not started yet, or shutting down)".formatted(pid));
            }
            ChainGuard guard = this.guard.restart(MAX_INTERPRETERS, first);
            int count = 0;
            for (long interpreter = first; interpreter != 0; ) {
                window.read(reader, interpreter);
                threads.gilHolder = window.gilHolder(reader, runtime);
                list.read(window);
                threads.main = window.mainThread(list);
                // Only 3.10 learns its ids from the main thread, once: the walk does not look otherwise.
                for (int i = 0; nativeIds.learning() && i < list.count(); i++) {
                    if (list.address(i) == threads.main) {
                        nativeIds.learnFrom(list.state(i), reader);
                    }
                }
                long next = window.next();
                visitor.visit(window, threads);
                count++;
                if (next != 0 && !guard.step(next)) {
                    throw ThreadList.corrupt("interpreter", pid, guard);
                }
                interpreter = next;
            }
            head.walked(reader, first, count, System.nanoTime());
            done = true;
        } finally {
            if (!done) {
                head.forget(); // the next reading reads the head, in case the interpreter trusted is going away
            }
        }
    }

    /** Every interpreter and its started threads, as lists (for readers other than the walk). */
    public Listing listing() throws MemoryAccessException, InspectionException {
        List<Long> interpreters = new ArrayList<>();
        List<ThreadRef> refs = new ArrayList<>();
        read((window, threads) -> {
            interpreters.add(window.address());
            for (int i = 0; i < threads.count(); i++) {
                long nativeId = threads.nativeId(i);
                if (!threads.notStarted(i, nativeId)) {
                    refs.add(new ThreadRef(window.address(), threads.address(i), Math.max(0, nativeId), threads.ident(i)));
                }
            }
        });
        return new Listing(interpreters, refs);
    }
}
