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

    private final Process child;
    /** Takes the child down with Remora if Remora is killed before close() runs. */
    private final Thread killChild;
    private TargetPorts ports;

    private LaunchedTarget(Process child) {
        this.child = child;
        this.killChild = new Thread(child::destroyForcibly, "remora-stop-target");
        Runtime.getRuntime().addShutdownHook(killChild);
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
        ProcessBuilder builder = new ProcessBuilder(command);
        if (output == Output.DISCARDED) {
            builder.redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        } else {
            builder.inheritIO();
        }
        return new LaunchedTarget(builder.start());
    }

    int pid() {
        return (int) child.pid();
    }

    boolean alive() {
        return child.isAlive();
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
