package dev.remora.adapters.vmreadv;

import dev.remora.ports.ProcessStopException;
import dev.remora.ports.ProcessStopException.Reason;
import dev.remora.ports.ProcessStopper;

import dev.remora.ports.PtraceAdvice;
import dev.remora.ports.ThreadRegisters;
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
 * waits for that stop, passing on at once any signal that arrives meanwhile, and each resume
 * continues it (a thread the user's job control stopped meanwhile stays stopped: {@code
 * PTRACE_LISTEN}). Threads started since the last stop are seized and stopped too, until a listing
 * of the process's threads finds no new one. A traced thread that exits is reported to its tracer
 * before anyone else, and its parent cannot collect the process until the tracer has: the exit of
 * every thread that left is collected at the next stop and when the stopper closes.
 */
@SuppressWarnings("restricted") // the launchers and the jar's manifest enable native access for Remora
public final class PtraceStopper implements ProcessStopper {

    private static final int PTRACE_GETREGS = 12;
    private static final int USER_REGS_WORDS = 27;
    private static final int PTRACE_CONT = 7;
    private static final int PTRACE_DETACH = 17;
    private static final int PTRACE_SEIZE = 0x4206;
    private static final int PTRACE_INTERRUPT = 0x4207;
    private static final int PTRACE_LISTEN = 0x4208;
    private static final int PTRACE_EVENT_STOP = 128;
    /** Listings of the threads per stop, for threads started while the others were being stopped. */
    private static final int MAX_LISTINGS = 16;
    /** How a stopped thread resumes: it continues, or (stopped by job control) it listens. */
    private static final int CONTINUE = 0;
    private static final int LISTEN = 1;
    private static final int WNOHANG = 1;
    private static final int WALL = 0x40000000;
    /** How long a thread may take to stop before the stop fails. */
    private static final long STOP_TIMEOUT_NANOS = 2_000_000_000L;
    /**
     * How long closing waits for the exits still owed: a process's main thread reports its exit only
     * once its other threads have ended.
     */
    private static final long COLLECT_TIMEOUT_NANOS = 1_000_000_000L;

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
    private final MemorySegment userRegs = arena.allocate(JAVA_LONG, USER_REGS_WORDS);
    /** Seized threads, and how each resumes. */
    private final Map<Integer, Integer> threads = new LinkedHashMap<>();
    /** Threads that left {@link #threads} by ending, whose exit may still wait to be collected. */
    private final java.util.Set<Integer> ended = new java.util.LinkedHashSet<>();
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
        long deadline = System.nanoTime() + STOP_TIMEOUT_NANOS;
        collectExits();
        try {
            // The threads known from the last stop first; then one listing finds those started since,
            // and in a process whose threads stay put it is the only listing this stop makes.
            stopAll(threads.keySet().stream().toList(), deadline);
            // Threads started meanwhile, and those they started: until a listing finds none.
            for (int listing = 0; listing < MAX_LISTINGS; listing++) {
                java.util.List<Integer> fresh = seizeNewThreads();
                if (fresh.isEmpty()) {
                    break;
                }
                stopAll(fresh, deadline);
            }
        } catch (ProcessStopException e) {
            resume(); // those stopped so far run on
            throw e;
        }
        if (threads.isEmpty()) {
            collectExits();
            throw new ProcessStopException(Reason.GONE, "process %d exited".formatted(pid));
        }
        stopped = true;
    }

    private void stopAll(java.util.List<Integer> tids, long deadline) throws ProcessStopException {
        for (int tid : tids) {
            if (ptrace(PTRACE_INTERRUPT, tid, 0) < 0) {
                left(tid); // exited since it was seized
            }
        }
        for (int tid : tids) {
            if (threads.containsKey(tid)) {
                int resumeWith = awaitStop(tid, deadline);
                if (resumeWith < 0) {
                    left(tid);
                } else {
                    threads.put(tid, resumeWith);
                }
            }
        }
    }

    @Override
    public Optional<ThreadRegisters> registers(long nativeThreadId) {
        if (!stopped || nativeThreadId <= 0 || nativeThreadId > Integer.MAX_VALUE
                || !threads.containsKey((int) nativeThreadId)) {
            return Optional.empty();
        }
        if (ptrace(PTRACE_GETREGS, (int) nativeThreadId, userRegs.address()) < 0) {
            return Optional.empty(); // exited while stopped
        }
        return Optional.of(ThreadRegisters.ofUserRegs(userRegs.toArray(JAVA_LONG)));
    }

    @Override
    public void resume() {
        for (Map.Entry<Integer, Integer> thread : threads.entrySet()) {
            ptrace(thread.getValue() == LISTEN ? PTRACE_LISTEN : PTRACE_CONT, thread.getKey(), 0);
            thread.setValue(CONTINUE);
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
        for (int tid : threads.keySet()) {
            if (ptrace(PTRACE_DETACH, tid, 0) < 0) {
                ended.add(tid); // ended while stopped
            }
        }
        threads.clear();
        stopped = false;
        long deadline = System.nanoTime() + COLLECT_TIMEOUT_NANOS;
        while (!collectExits() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(1_000_000);
        }
        arena.close();
    }

    /** A thread that ended: no longer stopped or resumed, its exit owed until collected. */
    private void left(int tid) {
        threads.remove(tid);
        ended.add(tid);
    }

    /**
     * Collects the exits of the threads that ended, as far as they are reported yet; returns whether
     * none is owed any more. A thread whose exit was collected already, or that is not ours, is
     * dropped too.
     */
    private boolean collectExits() {
        for (Iterator<Integer> it = ended.iterator(); it.hasNext(); ) {
            int tid = it.next();
            int got;
            try {
                got = (int) WAITPID.invokeExact(callState, tid, status, WNOHANG | WALL);
            } catch (Throwable t) {
                throw new IllegalStateException(t);
            }
            if (got != 0) {
                it.remove(); // collected, or not ours to collect (ECHILD)
            }
        }
        return ended.isEmpty();
    }

    /**
     * Waits until {@code tid} is in the stop the interrupt asked for; returns how it is to resume
     * ({@link #CONTINUE}, or {@link #LISTEN} when job control stopped it meanwhile), or -1 when it exited.
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
                if ((s & 0xff) != 0x7f) {
                    return -1; // exited or killed
                }
                int signal = (s >> 8) & 0xff;
                if ((s >>> 16) == PTRACE_EVENT_STOP) {
                    // The interrupt's stop, or a group stop (job control), which must last past the sample.
                    return signal == 19 || signal == 20 || signal == 21 || signal == 22 ? LISTEN : CONTINUE;
                }
                // A signal on its way in: pass it on now and wait on for the interrupt's stop.
                ptrace(PTRACE_CONT, tid, (s >>> 16) == 0 ? signal : 0);
                continue;
            }
            // The stop may have been collected by another waiter in this process: a JVM reaps the
            // processes it started, and a ptrace stop of a child is reported to any of its waiters.
            char state = state(tid);
            if (state == 't') {
                return CONTINUE;
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

    /** Whether a state letter is that of a thread that has ended: a zombie, dead, or gone from /proc. */
    private static boolean ended(char state) {
        return state == 'Z' || state == 'X' || state == '?';
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

    /** Seizes the threads not seized yet; returns them. */
    private java.util.List<Integer> seizeNewThreads() throws ProcessStopException {
        java.util.List<Integer> fresh = new java.util.ArrayList<>();
        Path tasks = Path.of("/proc", Integer.toString(pid), "task");
        try (Stream<Path> list = Files.list(tasks)) {
            for (Iterator<Path> it = list.iterator(); it.hasNext(); ) {
                int tid = Integer.parseInt(it.next().getFileName().toString());
                if (threads.containsKey(tid)) {
                    continue;
                }
                if (ptrace(PTRACE_SEIZE, tid, 0) < 0) {
                    int errno = FfmProcessVm.errno(callState);
                    if (errno == Errno.ESRCH || tid != pid && ended(state(tid))) {
                        continue; // exited meanwhile: the kernel refuses a thread that is exiting with EPERM
                    }
                    throw refused(errno);
                }
                threads.put(tid, CONTINUE);
                fresh.add(tid);
            }
            return fresh;
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
