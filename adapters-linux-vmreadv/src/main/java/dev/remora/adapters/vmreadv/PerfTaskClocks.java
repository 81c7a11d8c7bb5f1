package dev.remora.adapters.vmreadv;

import dev.remora.ports.ThreadCpuClocks;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Each thread's CPU clock through the kernel's task-clock software event ({@code perf_event_open}, one
 * counter per thread, opened when the thread is first asked for). Reading a counter of a thread that
 * is running updates it on the spot, so two readings a few microseconds apart tell whether the thread
 * had a CPU in between. Counters of threads that exited are closed once a second.
 */
@SuppressWarnings("restricted") // the launchers and the jar's manifest enable native access for Remora
public final class PerfTaskClocks implements ThreadCpuClocks {

    private static final int PERF_TYPE_SOFTWARE = 1;
    private static final int PERF_COUNT_SW_TASK_CLOCK = 1;
    /** {@code PERF_ATTR_SIZE_VER0}: the fields before it are all this needs. */
    private static final int ATTR_SIZE = 64;
    private static final int ATTR_FLAGS = 40;
    private static final long PERF_FLAG_FD_CLOEXEC = 8;
    /** Counters open at most: a process with more threads has the rest read as unavailable. */
    static final int MAX_COUNTERS = 4096;
    private static final long PRUNE_NANOS = 1_000_000_000L;

    private static final long SYS_PERF_EVENT_OPEN = switch (System.getProperty("os.arch", "")) {
        case "amd64", "x86_64" -> 298;
        case "aarch64" -> 241;
        default -> -1;
    };
    private static final MethodHandle SYSCALL;
    private static final MethodHandle READ;
    private static final MethodHandle CLOSE;

    static {
        Linker linker = Linker.nativeLinker();
        boolean linux = System.getProperty("os.name", "").toLowerCase().startsWith("linux") && ADDRESS.byteSize() == 8
                && SYS_PERF_EVENT_OPEN > 0;
        // glibc declares syscall variadic after the number.
        SYSCALL = linux ? linker.defaultLookup().find("syscall").map(fn -> linker.downcallHandle(fn,
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG),
                Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"))).orElse(null) : null;
        READ = linux ? linker.defaultLookup().find("read").map(fn -> linker.downcallHandle(fn,
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG))).orElse(null) : null;
        CLOSE = linux ? linker.defaultLookup().find("close").map(fn -> linker.downcallHandle(fn,
                FunctionDescriptor.of(JAVA_INT, JAVA_INT))).orElse(null) : null;
    }

    private final int pid;
    /** Shared: the clocks may be opened on one thread and read on the sampler's. */
    private final Arena arena = Arena.ofShared();
    private final MemorySegment attr = arena.allocate(ATTR_SIZE, 8);
    private final MemorySegment value = arena.allocate(JAVA_LONG);
    private final MemorySegment callState = arena.allocate(FfmProcessVm.CALL_STATE);
    /** Thread ids in ascending order, and each one's counter (-1: it could not be opened). */
    private int[] tids = new int[16];
    private int[] fds = new int[16];
    private int count;
    private long lastPrune = System.nanoTime();

    private PerfTaskClocks(int pid) {
        this.pid = pid;
        attr.set(JAVA_INT, 0, PERF_TYPE_SOFTWARE);
        attr.set(JAVA_INT, 4, ATTR_SIZE);
        attr.set(JAVA_LONG, 8, PERF_COUNT_SW_TASK_CLOCK);
        attr.set(JAVA_LONG, ATTR_FLAGS, 0L); // enabled, counting user and kernel time alike
    }

    /**
     * Clocks for the threads of {@code pid}, once the kernel has opened one for its main thread.
     *
     * @throws IOException saying why in one line: no such system call here, or not allowed
     */
    public static PerfTaskClocks open(int pid) throws IOException {
        if (SYSCALL == null || READ == null || CLOSE == null) {
            throw new IOException("per-thread CPU clocks need Linux's perf_event_open, not found here");
        }
        PerfTaskClocks clocks = new PerfTaskClocks(pid);
        int fd = clocks.openCounter(pid);
        if (fd < 0) {
            int errno = FfmProcessVm.errno(clocks.callState);
            clocks.close();
            throw new IOException(switch (errno) {
                case Errno.EPERM, Errno.EACCES -> "perf_event_open was refused (perf_event_paranoid, or no CAP_PERFMON)";
                case Errno.ENOSYS -> "perf_event_open is not available (kernel or seccomp policy)";
                case Errno.ESRCH -> "process %d exited".formatted(pid);
                default -> "perf_event_open failed with errno " + errno;
            });
        }
        clocks.insert(0, pid, fd);
        return clocks;
    }

    @Override
    public long cpuNanos(long nativeThreadId) {
        if (nativeThreadId <= 0 || nativeThreadId > Integer.MAX_VALUE) {
            return UNAVAILABLE;
        }
        int tid = (int) nativeThreadId;
        int at = Arrays.binarySearch(tids, 0, count, tid);
        int fd;
        if (at >= 0) {
            fd = fds[at];
        } else {
            pruneNow();
            if (count >= MAX_COUNTERS) {
                return UNAVAILABLE;
            }
            fd = openCounter(tid);
            insert(Arrays.binarySearch(tids, 0, count, tid) ^ -1, tid, fd);
        }
        if (fd < 0) {
            return UNAVAILABLE;
        }
        try {
            long got = (long) READ.invokeExact(fd, value, 8L);
            return got == 8 ? value.get(JAVA_LONG, 0) : UNAVAILABLE;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        } finally {
            if (System.nanoTime() - lastPrune > PRUNE_NANOS) {
                pruneNow();
            }
        }
    }

    /** A counter for one thread of the target; -1 when the kernel refuses. */
    private int openCounter(int tid) {
        try {
            long fd = (long) SYSCALL.invokeExact(callState, SYS_PERF_EVENT_OPEN, attr, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
            return (int) fd;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    private void insert(int at, int tid, int fd) {
        if (count == tids.length) {
            tids = Arrays.copyOf(tids, count * 2);
            fds = Arrays.copyOf(fds, count * 2);
        }
        System.arraycopy(tids, at, tids, at + 1, count - at);
        System.arraycopy(fds, at, fds, at + 1, count - at);
        tids[at] = tid;
        fds[at] = fd;
        count++;
    }

    /** Closes the counters of threads no longer in the process: their ids may be handed out again. */
    private void pruneNow() {
        lastPrune = System.nanoTime();
        Path tasks = Path.of("/proc", Integer.toString(pid), "task");
        int kept = 0;
        for (int i = 0; i < count; i++) {
            if (Files.exists(tasks.resolve(Integer.toString(tids[i])))) {
                tids[kept] = tids[i];
                fds[kept++] = fds[i];
            } else {
                closeFd(fds[i]);
            }
        }
        count = kept;
    }

    private static void closeFd(int fd) {
        if (fd >= 0) {
            try {
                int ignored = (int) CLOSE.invokeExact(fd);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
        }
    }

    @Override
    public void close() {
        for (int i = 0; i < count; i++) {
            closeFd(fds[i]);
        }
        count = 0;
        arena.close();
    }
}
