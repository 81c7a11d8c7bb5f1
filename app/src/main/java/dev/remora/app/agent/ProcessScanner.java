package dev.remora.app.agent;

import dev.remora.adapters.procmem.ProcessList;
import dev.remora.adapters.vmreadv.PerfTaskClocks;
import dev.remora.app.ps.PythonProcessFinder;
import dev.remora.app.wiring.TargetPorts;
import dev.remora.domain.InspectionException;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.ThreadCpuClocks;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/**
 * Looks through the host's processes, off the sampling thread, for Python processes to sample: each
 * new one is opened and found (which reads its files and can take milliseconds) here, then handed to
 * the sampling loop. A process that is not Python is remembered and not opened again; one that is
 * Python but cannot be read (rights, an unsupported version) is logged once and looked at again a
 * minute later.
 */
final class ProcessScanner {

    /** How long a process that could not be read is left alone before it is tried again. */
    static final long RETRY_NANOS = TimeUnit.SECONDS.toNanos(60);
    /**
     * How old a process must be before it is opened: a child forked from a Python process maps Python
     * until it execs its own program, usually within milliseconds.
     */
    private static final long MIN_AGE_TICKS = ProcessList.TICKS_PER_SECOND / 2;

    private final ProcessSelection selection;
    private final LabelSettings labels;
    private final ProcessOpener opener;
    private final ProfileMode mode;
    private final long intervalNanos;
    private final AgentLog log;
    private final int self = (int) ProcessHandle.current().pid();
    /**
     * Processes handed to the sampling loop and not yet given back, by pid and start alone: one that
     * rewrites its command line while it is sampled (gunicorn and celery name their workers so) is
     * still the same process.
     */
    private final Set<ProcessKey.Identity> watched = ConcurrentHashMap.newKeySet();
    private final ConcurrentLinkedQueue<WatchedProcess> arrivals = new ConcurrentLinkedQueue<>();
    /** Processes found not to be Python: never opened again. */
    private Set<ProcessKey> notPython = new HashSet<>();
    /** Python processes that could not be read, and when they may be tried again. */
    private Map<ProcessKey, Long> retryAt = new HashMap<>();
    private boolean perfRefusalLogged;

    ProcessScanner(ProcessSelection selection, LabelSettings labels, ProcessOpener opener, ProfileMode mode, long intervalNanos,
                   AgentLog log) {
        this.selection = selection;
        this.labels = labels;
        this.opener = opener;
        this.mode = mode;
        this.intervalNanos = intervalNanos;
        this.log = log;
    }

    /** The processes found since the last call, for the sampling loop. */
    ConcurrentLinkedQueue<WatchedProcess> arrivals() {
        return arrivals;
    }

    /** The sampling loop no longer samples {@code key}: it exited. */
    void gone(ProcessKey key) {
        watched.remove(key.identity());
    }

    int watchedCount() {
        return watched.size();
    }

    /** One look at the host's processes. */
    void scan() throws IOException {
        List<ProcessList.Entry> processes = ProcessList.all();
        long uptime = ProcessList.uptimeTicks();
        Set<ProcessKey> present = new HashSet<>();
        for (ProcessList.Entry entry : processes) {
            if (entry.pid() == self || entry.command().isEmpty()) {
                continue;
            }
            ProcessKey key = new ProcessKey(entry.pid(), entry.startTicks(), entry.command());
            present.add(key);
            if (watched.contains(key.identity()) || notPython.contains(key) || uptime - entry.startTicks() < MIN_AGE_TICKS
                    || !selection.selects(entry.pid(), String.join(" ", entry.command()))) {
                continue;
            }
            Long retry = retryAt.get(key);
            if (retry != null && System.nanoTime() - retry < 0) {
                continue;
            }
            open(key);
        }
        // What left the host is forgotten, so that the sets stay as small as the host's process list.
        notPython.retainAll(present);
        retryAt.keySet().retainAll(present);
    }

    private void open(ProcessKey key) {
        TargetPorts ports = null;
        try {
            ports = opener.open(key.pid());
            if (!PythonProcessFinder.mapsPython(ports.image())) {
                notPython.add(key);
                ports.close();
                return;
            }
            PythonProcess process = PythonProcess.attach(ports.image(), ports.memory());
            ProcessLabels processLabels = labels.of(key.pid(), key.command(), process.version().toString(),
                    ProcessEnvironment.of(key.pid(), labels.fromEnvironment().keySet()));
            WatchedProcess adopted = new WatchedProcess(key, ports, process, processLabels, clocks(key.pid()), mode,
                    intervalNanos);
            retryAt.remove(key);
            watched.add(key.identity());
            arrivals.add(adopted);
            log.line("sampling process " + key.pid() + " (CPython " + process.version() + ", service "
                    + processLabels.serviceName() + "): " + commandLine(key));
        } catch (InspectionException.NotPython notPythonAfterAll) {
            notPython.add(key);
            closeQuietly(ports);
        } catch (InspectionException.TargetGone gone) {
            closeQuietly(ports);
        } catch (InspectionException | ProcessImageException | RuntimeException e) {
            closeQuietly(ports);
            if (!retryAt.containsKey(key)) {
                log.line("process " + key.pid() + " skipped: " + e.getMessage() + "; looked at again every "
                        + TimeUnit.NANOSECONDS.toSeconds(RETRY_NANOS) + " s (" + commandLine(key) + ")");
            }
            retryAt.put(key, System.nanoTime() + RETRY_NANOS);
        }
    }

    /** cpu mode's per-thread CPU clocks, where the kernel gives them. */
    private ThreadCpuClocks clocks(int pid) {
        if (mode != ProfileMode.CPU) {
            return ThreadCpuClocks.NONE;
        }
        try {
            return PerfTaskClocks.open(pid);
        } catch (IOException e) {
            if (!perfRefusalLogged) {
                perfRefusalLogged = true;
                log.line(e.getMessage() + "; cpu mode counts a thread waiting for a CPU as on one");
            }
            return ThreadCpuClocks.NONE;
        }
    }

    private static String commandLine(ProcessKey key) {
        String line = String.join(" ", key.command());
        return line.length() > 200 ? line.substring(0, 200) + "..." : line;
    }

    private static void closeQuietly(TargetPorts ports) {
        if (ports != null) {
            ports.close();
        }
    }
}
