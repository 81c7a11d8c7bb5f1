package dev.remora.app.cli;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.adapters.procmem.ProcessList;
import dev.remora.app.ps.PythonProcessFinder;
import dev.remora.domain.InspectionException;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.ports.ProcessImageException;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * {@code --subprocesses}: profiles a process and every Python process under it, each in a session of
 * its own, on a thread of its own, into an output of its own (each process's version is found on its
 * own: a 3.15 parent may start a 3.13 child). The tree is looked at every 20 ms, so that a worker that
 * lives 100 ms is sampled for most of its life; a new process is attached to once it is 20 ms old,
 * past the moment when a forked child is replaced by the program it execs.
 */
final class ProcessTreeProfiler {

    private static final long LOOK_EVERY_MILLIS = 20;
    /** 20 ms; the kernel counts process times in hundredths of a second. */
    private static final long MIN_AGE_TICKS = 20 * ProcessList.TICKS_PER_SECOND / 1000;

    private final ProfileOptions options;
    private final BackendOption backend;
    private final PrintWriter out;
    private final PrintWriter err;
    private final int self = (int) ProcessHandle.current().pid();
    private final AtomicInteger profiled = new AtomicInteger();
    private final AtomicInteger failed = new AtomicInteger();
    /** With --merge: the sessions' profiles, written as one when all are over. */
    private final MergedTree merged;

    ProcessTreeProfiler(ProfileOptions options, BackendOption backend, PrintWriter out, PrintWriter err) {
        this.options = options;
        this.merged = new MergedTree(options.format().samplesKept());
        this.backend = backend;
        this.out = out;
        this.err = err;
    }

    /**
     * Profiles the tree under {@code root} until the duration is over, Ctrl-C, or the root has exited
     * and every session with it; returns the exit code.
     */
    int run(int root, BooleanSupplier rootAlive) throws Exception {
        // A bad output path fails before anything is sampled.
        ProfileOutput mergedOutput = options.merge ? ProfileOutput.prepare(options, root, out, err) : null;
        long start = System.nanoTime();
        long duration = options.durationNanos();
        AtomicBoolean stopping = new AtomicBoolean();
        CountDownLatch written = new CountDownLatch(1);
        // On Ctrl-C each session keeps what it sampled itself; here no new one may start, and the JVM
        // waits for the merged profile to be written.
        Thread onInterrupt = new Thread(() -> {
            stopping.set(true);
            try {
                written.await(60, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "remora-interrupt-tree");
        Runtime.getRuntime().addShutdownHook(onInterrupt);
        Set<Integer> seen = new HashSet<>(List.of(self));
        List<Thread> sessions = new ArrayList<>();
        try {
            while (!stopping.get()) {
                long elapsed = System.nanoTime() - start;
                if (duration > 0 && elapsed >= duration) {
                    break;
                }
                for (ProcessList.Entry entry : newProcesses(root, seen)) {
                    long remaining = duration > 0 ? duration - elapsed : 0;
                    sessions.add(Thread.ofPlatform().name("remora-session-" + entry.pid())
                            .start(() -> profile(entry, remaining)));
                }
                if (!rootAlive.getAsBoolean() && sessions.stream().noneMatch(Thread::isAlive)) {
                    break;
                }
                TimeUnit.MILLISECONDS.sleep(LOOK_EVERY_MILLIS);
            }
            for (Thread session : sessions) {
                session.join();
            }
            if (profiled.get() == 0) {
                throw new UserError("neither process %d nor any process under it ran Python while it was watched"
                        .formatted(root), UserErrorHandler.EXIT_FAILURE);
            }
            if (options.merge) {
                mergedOutput.write(merged.profile(root));
            }
        } finally {
            written.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(onInterrupt);
            } catch (IllegalStateException shuttingDown) {
                // Running already: it returns now that the profile is written.
            }
        }
        return failed.get() == 0 ? 0 : UserErrorHandler.EXIT_FAILURE;
    }

    /** The processes of the tree not seen before and old enough; they are seen from now on. */
    private List<ProcessList.Entry> newProcesses(int root, Set<Integer> seen) throws Exception {
        List<ProcessList.Entry> processes = ProcessList.all();
        long now = ProcessList.uptimeTicks();
        Set<Integer> tree = PythonProcessFinder.subtree(processes, root);
        List<ProcessList.Entry> fresh = new ArrayList<>();
        for (ProcessList.Entry entry : processes) {
            if (tree.contains(entry.pid()) && !seen.contains(entry.pid()) && now - entry.startTicks() >= MIN_AGE_TICKS) {
                seen.add(entry.pid());
                fresh.add(entry);
            }
        }
        return fresh;
    }

    /** One process's session; a process that is not Python is left alone, one that cannot be read says why. */
    private void profile(ProcessList.Entry entry, long durationNanos) {
        int pid = entry.pid();
        try (TargetPorts ports = backend.open(pid)) {
            if (!PythonProcessFinder.mapsPython(ports.image())) {
                return;
            }
            PythonProcess process = PythonProcess.attach(ports.image(), ports.memory());
            ProfileSink output = options.merge ? merged.part(pid, entry.command())
                    : ProfileOutput.prepareForProcessOfTree(options, pid, out, err);
            profiled.incrementAndGet();
            // At once: a child may not live as long as a warm-up.
            new ProfileSession(process, ports, options, output, err, ProfileSession.FirstTick.AT_ONCE)
                    .run(() -> alive(pid), durationNanos);
        } catch (InspectionException.NotPython | InspectionException.TargetGone notProfiled) {
            // Not Python, or gone before it could be read.
        } catch (InspectionException | ProcessImageException e) {
            say("remora: process %d not profiled: %s".formatted(pid, e.getMessage()));
        } catch (Exception | LinkageError e) {
            failed.incrementAndGet();
            say("remora: process %d: %s".formatted(pid, e.getMessage()));
        }
    }

    private static boolean alive(int pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    private void say(String line) {
        synchronized (err) {
            err.println(line);
            err.flush();
        }
    }
}
