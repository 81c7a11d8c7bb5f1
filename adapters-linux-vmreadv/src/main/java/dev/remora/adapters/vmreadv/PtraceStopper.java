package dev.remora.adapters.vmreadv;

import dev.remora.ports.ProcessStopException;
import dev.remora.ports.ProcessStopException.Reason;
import dev.remora.ports.ProcessStopper;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Stops a process with ptrace: each thread is seized once ({@code PTRACE_SEIZE}, which neither stops
 * it nor changes what it sees), then each stop interrupts every thread ({@code PTRACE_INTERRUPT}) and
 * waits for it, and each resume continues it, giving back any signal that arrived meanwhile.
 * Threads started since the last stop are seized at the next one.
 */
public final class PtraceStopper implements ProcessStopper {

    private static final int PTRACE_CONT = 7;
    private static final int PTRACE_DETACH = 17;
    private static final int PTRACE_SEIZE = 0x4206;
    private static final int PTRACE_INTERRUPT = 0x4207;
    private static final int WNOHANG = 1;
    private static final int WALL = 0x40000000;
    /** How long a thread may take to stop before the stop fails. */
    private static final long STOP_TIMEOUT_NANOS = 2_000_000_000L;

    private static final MethodHandle PTRACE;
    private static final MethodHandle WAITPID;

    static {
        Linker linker = Linker.nativeLinker();
        boolean linux = System.getProperty("os.name", "").toLowerCase().startsWith("linux") && ADDRESS.byteSize() == 8;
        // glibc declares ptrace variadic after the request.
        PTRACE = linux ? linker.defaultLookup().find("ptrace").map(fn -> linker.downcallHandle(fn,
                FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS),
                Linker.Option.firstVariadicArg(1), Linker.Option.captureCallState("errno"))).orElse(null) : null;
        WAITPID = linux ? linker.defaultLookup().find("waitpid").map(fn -> linker.downcallHandle(fn,
                FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT),
                Linker.Option.captureCallState("errno"))).orElse(null) : null;
    }

    private final int pid;
    private final Arena arena = Arena.ofConfined();
    private final MemorySegment callState = arena.allocate(FfmProcessVm.CALL_STATE);
    private final MemorySegment status = arena.allocate(JAVA_INT);
    /** Seized threads, and the signal each is to get back when it resumes (0: none). */
    private final Map<Integer, Integer> threads = new LinkedHashMap<>();
    private boolean stopped;

    private PtraceStopper(int pid) {
        this.pid = pid;
    }

    /** Seizes every thread of {@code pid}; the process runs on until {@link #stop}. */
    public static PtraceStopper seize(int pid) throws ProcessStopException {
        if (PTRACE == null || WAITPID == null) {
            throw new ProcessStopException(Reason.UNAVAILABLE, "stopping a process needs Linux's ptrace, not found here");
        }
        PtraceStopper stopper = new PtraceStopper(pid);
        try {
            stopper.seizeNewThreads();
        } catch (ProcessStopException e) {
            stopper.close();
            throw e;
        }
        return stopper;
    }

    @Override
    public void stop() throws ProcessStopException {
        seizeNewThreads();
        for (Iterator<Integer> it = threads.keySet().iterator(); it.hasNext(); ) {
            int tid = it.next();
            if (ptrace(PTRACE_INTERRUPT, tid, 0) < 0) {
                it.remove(); // exited since it was seized
            }
        }
        long deadline = System.nanoTime() + STOP_TIMEOUT_NANOS;
        for (Iterator<Map.Entry<Integer, Integer>> it = threads.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<Integer, Integer> thread = it.next();
            int signal = awaitStop(thread.getKey(), deadline);
            if (signal < 0) {
                it.remove();
            } else {
                thread.setValue(signal);
            }
        }
        if (threads.isEmpty()) {
            throw new ProcessStopException(Reason.GONE, "process %d exited".formatted(pid));
        }
        stopped = true;
    }

    @Override
    public void resume() {
        for (Map.Entry<Integer, Integer> thread : threads.entrySet()) {
            ptrace(PTRACE_CONT, thread.getKey(), thread.getValue());
            thread.setValue(0);
        }
        stopped = false;
    }

    @Override
    public void close() {
        try {
            if (!stopped && !threads.isEmpty()) {
                stop(); // a thread is detached only while it is stopped
            }
        } catch (ProcessStopException gone) {
            // Nothing left to let go of.
        }
        for (Map.Entry<Integer, Integer> thread : threads.entrySet()) {
            ptrace(PTRACE_DETACH, thread.getKey(), thread.getValue());
        }
        threads.clear();
        stopped = false;
        arena.close();
    }

    /**
     * Waits until {@code tid} is stopped; returns the signal to give back when it resumes (0 for the
     * stop we asked for), or -1 when the thread exited.
     */
    private int awaitStop(int tid, long deadline) throws ProcessStopException {
        while (true) {
            int got;
            try {
                got = (int) WAITPID.invokeExact(callState, tid, status, WNOHANG | WALL);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (got < 0) {
                return -1; // no longer ours: it exited and was reaped
            }
            if (got == tid) {
                int s = status.get(JAVA_INT, 0);
                if ((s & 0x7f) == 0 || ((s & 0x7f) != 0x7f)) {
                    return -1; // exited or killed
                }
                int signal = (s >> 8) & 0xff;
                boolean eventStop = (s >>> 16) != 0;
                // The interrupt (and group stops) show as an event stop; any other stop is a signal on its way in.
                return eventStop || signal == 5 /* SIGTRAP */ ? 0 : signal;
            }
            // The stop may have been collected by another waiter in this process: a JVM reaps the
            // processes it started, and a ptrace stop of a child is reported to any of its waiters.
            char state = state(tid);
            if (state == 't') {
                return 0;
            }
            if (state == 'Z' || state == 'X' || state == '?') {
                return -1;
            }
            if (System.nanoTime() > deadline) {
                throw new ProcessStopException(Reason.UNAVAILABLE,
                        "thread %d of process %d did not stop within 2 s".formatted(tid, pid));
            }
            LockSupport.parkNanos(2_000);
        }
    }

    /** The thread's state letter from /proc ('t': stopped by its tracer), or '?' when it is gone. */
    private char state(int tid) {
        try {
            String stat = Files.readString(Path.of("/proc", Integer.toString(pid), "task", Integer.toString(tid), "stat"));
            int close = stat.lastIndexOf(')');
            return close > 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : '?';
        } catch (IOException e) {
            return '?';
        }
    }

    private void seizeNewThreads() throws ProcessStopException {
        Path tasks = Path.of("/proc", Integer.toString(pid), "task");
        try (Stream<Path> list = Files.list(tasks)) {
            for (Iterator<Path> it = list.iterator(); it.hasNext(); ) {
                int tid = Integer.parseInt(it.next().getFileName().toString());
                if (threads.containsKey(tid)) {
                    continue;
                }
                if (ptrace(PTRACE_SEIZE, tid, 0) < 0) {
                    int errno = FfmProcessVm.errno(callState);
                    if (errno == Errno.ESRCH) {
                        continue; // exited meanwhile
                    }
                    throw refused(errno);
                }
                threads.put(tid, 0);
                if (stopped) {
                    // Seized while the others are stopped: stop it too before anything is read.
                    ptrace(PTRACE_INTERRUPT, tid, 0);
                    if (awaitStop(tid, System.nanoTime() + STOP_TIMEOUT_NANOS) < 0) {
                        threads.remove(tid);
                    }
                }
            }
        } catch (NoSuchFileException e) {
            throw new ProcessStopException(Reason.GONE, "process %d exited".formatted(pid));
        } catch (IOException | NumberFormatException e) {
            throw new ProcessStopException(Reason.UNAVAILABLE, "cannot list the threads of process %d: %s".formatted(pid, e));
        }
    }

    private ProcessStopException refused(int errno) {
        Optional<String> tracer = tracer();
        if (tracer.isPresent()) {
            return new ProcessStopException(Reason.ALREADY_TRACED, ("process %d is already traced by process %s (a debugger "
                    + "or another profiler): it cannot be stopped by a second one").formatted(pid, tracer.get()));
        }
        if (errno == Errno.EPERM || errno == Errno.EACCES) {
            return new ProcessStopException(Reason.PERMISSION_DENIED, PtraceAdvice.message(pid)
                    .replace("reading process", "stopping process"));
        }
        if (errno == Errno.ESRCH) {
            return new ProcessStopException(Reason.GONE, "process %d exited".formatted(pid));
        }
        return new ProcessStopException(Reason.UNAVAILABLE, "ptrace refused to seize process %d (errno %d)".formatted(pid, errno));
    }

    /** The pid tracing the process, from /proc/PID/status, when there is one. */
    private Optional<String> tracer() {
        try {
            return Files.readAllLines(Path.of("/proc", Integer.toString(pid), "status")).stream()
                    .filter(line -> line.startsWith("TracerPid:"))
                    .map(line -> line.substring("TracerPid:".length()).strip())
                    .filter(value -> !value.equals("0"))
                    .findFirst();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    private long ptrace(int request, int tid, long data) {
        try {
            return (long) PTRACE.invokeExact(callState, request, tid, MemorySegment.NULL, MemorySegment.ofAddress(data));
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
