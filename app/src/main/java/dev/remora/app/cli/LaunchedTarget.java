package dev.remora.app.cli;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.domain.InspectionException;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Python that Remora started itself, attached as soon as its runtime is up, and stopped when done
 * unless it ended on its own.
 */
final class LaunchedTarget implements AutoCloseable {

    /** How long a freshly started interpreter may take to set up its runtime. */
    private static final long ATTACH_TIMEOUT_NANOS = 10_000_000_000L;

    /**
     * The parent that stands between Remora and a target it will stop with ptrace: it starts the target
     * (the same Python, its own arguments), forwards SIGTERM, takes the target down if it is killed
     * itself, and exits with the target's exit code. The target ignores nothing: Ctrl-C reaches it as
     * before, the parent ignores it.
     */
    private static final String PARENT = String.join("\n",
            "import os, signal, sys",
            "pid = os.fork()",
            "if pid == 0:",
            "    try:",
            "        import ctypes",
            "        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG: go with the parent",
            "    except Exception:",
            "        pass",
            "    os.execv(sys.executable, [sys.executable] + sys.argv[1:])",
            "signal.signal(signal.SIGINT, signal.SIG_IGN)",
            "signal.signal(signal.SIGTERM, lambda *_: os.kill(pid, signal.SIGTERM))",
            "while True:",
            "    try:",
            "        _, status = os.waitpid(pid, 0)",
            "        break",
            "    except InterruptedError:",
            "        pass",
            // os.waitstatus_to_exitcode is 3.9+: what it does, spelled out for 3.8.
            "code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)",
            "sys.exit(code if code >= 0 else 128 - code)");
    /** How long the parent may take to start the target. */
    private static final long START_TIMEOUT_NANOS = 10_000_000_000L;

    private final Process child;
    /** The target: the child, or the child's own child where a parent stands between them. */
    private final long target;
    /** Takes the child down with Remora if Remora is killed before close() runs. */
    private final Thread killChild;
    private TargetPorts ports;

    private LaunchedTarget(Process child, long target) {
        this.child = child;
        this.target = target;
        this.killChild = new Thread(child::destroyForcibly, "remora-stop-target");
        Runtime.getRuntime().addShutdownHook(killChild);
    }

    /** Who waits on the target's exit. */
    enum Parent {
        /** Remora: the JVM reaps its own children. */
        REMORA,
        /**
         * A small Python parent: a target Remora stops with ptrace reports its stops to whoever waits on
         * it, and the JVM, waiting on its children, would take a stop for the target's exit.
         */
        PYTHON
    }

    /** Where the target's own output goes. */
    enum Output {
        /** The terminal Remora runs in: the user's script talks to the user. */
        SHARED,
        /** Nowhere: a workload Remora started for itself. */
        DISCARDED
    }

    /** Starts {@code command}, to be read through {@code backend}; its output goes where {@code output} says. */
    static LaunchedTarget start(List<String> command, Output output, BackendOption backend) throws IOException {
        return start(command, output, Parent.REMORA);
    }

    /**
     * Starts {@code command} (a Python and its arguments) with {@code parent} waiting on it; its output
     * goes where {@code output} says.
     */
    static LaunchedTarget start(List<String> command, Output output, Parent parent) throws IOException {
        List<String> started = command;
        if (parent == Parent.PYTHON) {
            started = new java.util.ArrayList<>(List.of(command.getFirst(), "-c", PARENT));
            started.addAll(command.subList(1, command.size()));
        }
        ProcessBuilder builder = new ProcessBuilder(started);
        if (output == Output.DISCARDED) {
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        } else {
            builder.inheritIO();
        }
        Process child = builder.start();
        if (parent == Parent.REMORA) {
            return new LaunchedTarget(child, child.pid());
        }
        try {
            return new LaunchedTarget(child, startedTarget(child));
        } catch (IOException | RuntimeException e) {
            child.destroyForcibly();
            throw e;
        }
    }

    /**
     * The parent's child once it runs the target's own command (before that it is a copy of the
     * parent); the parent itself if it ended first, which {@link #attach} then reports.
     */
    private static long startedTarget(Process parent) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT_NANOS;
        while (System.nanoTime() < deadline && parent.isAlive()) {
            java.util.Optional<ProcessHandle> started = parent.toHandle().children()
                    .filter(c -> c.info().arguments().map(a -> !List.of(a).contains(PARENT)).orElse(false))
                    .findFirst();
            if (started.isPresent()) {
                return started.get().pid();
            }
            try {
                Thread.sleep(1);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while the target started", e);
            }
        }
        if (!parent.isAlive()) {
            return parent.pid();
        }
        throw new IOException("the target did not start under its parent");
    }

    int pid() {
        return (int) target;
    }

    /**
     * Whether the target runs: where a parent stands between them, the target itself, which ends
     * before its parent does (as a zombie, until Remora, tracing it, and then the parent collect it).
     */
    boolean alive() {
        if (target == child.pid()) {
            return child.isAlive();
        }
        try {
            String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc", Long.toString(target), "stat"));
            int close = stat.lastIndexOf(')');
            char state = close > 0 && close + 2 < stat.length() ? stat.charAt(close + 2) : 'X';
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException e) {
            return false;
        }
    }

    TargetPorts ports() {
        return ports;
    }

    /** Opens the ports and waits until the interpreter can be walked. */
    PythonProcess attach(BackendOption backend) throws Exception {
        try {
            ports = backend.open(pid());
        } catch (InspectionException.TargetGone e) {
            throw exitedEarly();
        }
        long deadline = System.nanoTime() + ATTACH_TIMEOUT_NANOS;
        InspectionException last = null;
        while (System.nanoTime() < deadline) {
            if (!child.isAlive()) {
                throw exitedEarly();
            }
            try {
                PythonProcess process = PythonProcess.attach(ports.image(), ports.memory());
                process.snapshot(SnapshotOptions.threads(false));
                return process;
            } catch (InspectionException.NotPython | InspectionException.Unreadable | InspectionException.CorruptTarget e) {
                last = e;
                Thread.sleep(5);
            } catch (InspectionException.TargetGone e) {
                throw exitedEarly();
            }
        }
        throw last;
    }

    /**
     * The child's exit code once it has ended on its own; empty while it runs.
     *
     * @param gone whether sampling saw it go: its memory can vanish before its exit status is collected
     */
    java.util.OptionalInt exitCode(boolean gone) throws InterruptedException {
        return child.waitFor(gone ? 5 : 0, TimeUnit.SECONDS) ? java.util.OptionalInt.of(child.exitValue())
                : java.util.OptionalInt.empty();
    }

    /** A target that dies at once: say how it ended, not that it is missing. */
    private UserError exitedEarly() throws InterruptedException {
        child.waitFor(5, TimeUnit.SECONDS);
        String how = child.isAlive() ? "vanished" : "exited with code " + child.exitValue();
        return new UserError("the target %s before it could be profiled".formatted(how), UserErrorHandler.EXIT_FAILURE);
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(killChild);
        } catch (IllegalStateException shuttingDown) {
            // The hook is running or about to: it stops the child.
        }
        if (ports != null) {
            ports.close();
        }
        if (child.isAlive()) {
            child.destroy();
            try {
                if (!child.waitFor(3, TimeUnit.SECONDS)) {
                    child.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                child.destroyForcibly();
                Thread.currentThread().interrupt(); // the caller's interrupt stays for it to see
            }
        }
    }
}
