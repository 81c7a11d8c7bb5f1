package dev.remora.app.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Makes core files of running processes, the two ways a user gets one: gdb's {@code gcore} (the
 * process goes on) and the kernel's dump on a fatal signal (the process dies). A missing tool or an
 * unusable kernel setting fails with what to do, never skips.
 */
public final class CoreFiles {

    public static final Path GCORE = Path.of("/usr/bin/gcore");
    private static final Duration TIMEOUT = Duration.ofMinutes(2);
    /** Anonymous private and shared memory, ELF headers, private huge pages: see core(5). */
    private static final String DEFAULT_COREDUMP_FILTER = "0x33";

    private CoreFiles() {}

    /** {@code gcore -o DIR/gcore PID}; returns DIR/gcore.PID. */
    public static Path gcore(long pid, Path dir) {
        if (!Files.isExecutable(GCORE)) {
            throw new IllegalStateException(GCORE + " is missing: run scripts/provision-gdb.sh (installs gdb) as root");
        }
        useDefaultFilter(pid);
        Path log = dir.resolve("gcore.log");
        run(List.of(GCORE.toString(), "-o", dir.resolve("gcore").toString(), Long.toString(pid)), log, "gcore");
        Path core = dir.resolve("gcore." + pid);
        if (!Files.isRegularFile(core)) {
            throw new IllegalStateException("gcore wrote no " + core + "\n--- gcore output ---\n" + read(log));
        }
        return core;
    }

    /**
     * Lets the process dump core (prlimit), kills it with SIGABRT and moves the kernel's core into
     * {@code dir}. The kernel writes where kernel.core_pattern says, relative to the process's working
     * directory; only plain file patterns ("core", "core.%p") are followed.
     */
    public static Path kernelCore(long pid, Path dir) {
        return kernelCore(pid, dir, "ABRT");
    }

    /**
     * As {@link #kernelCore(long, Path)}, the process sent {@code signal} (a name as kill takes it): one
     * that kills it, or one upon which it crashes by itself.
     */
    public static Path kernelCore(long pid, Path dir, String signal) {
        String pattern = read(Path.of("/proc/sys/kernel/core_pattern")).strip();
        if (pattern.startsWith("|") || pattern.replace("%p", "").contains("%")) {
            throw new IllegalStateException("kernel.core_pattern is '" + pattern
                    + "': this test needs a plain file name pattern such as 'core' or 'core.%p'");
        }
        boolean usesPid = read(Path.of("/proc/sys/kernel/core_uses_pid")).strip().equals("1");
        String name = pattern.replace("%p", Long.toString(pid)) + (usesPid && !pattern.contains("%p") ? "." + pid : "");
        Path written;
        try {
            written = Files.readSymbolicLink(Path.of("/proc", Long.toString(pid), "cwd")).resolve(name);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the working directory of process " + pid, e);
        }
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow(() -> new IllegalStateException("no process " + pid));
        useDefaultFilter(pid);
        Path log = dir.resolve("kernel-core.log");
        run(List.of("prlimit", "--pid", Long.toString(pid), "--core=unlimited:unlimited"), log, "prlimit");
        run(List.of("kill", "-" + signal, Long.toString(pid)), log, "kill -" + signal);
        try {
            // The kernel finishes writing the core before the process becomes a zombie.
            process.onExit().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("process " + pid + " did not die after SIG" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
        if (!Files.isRegularFile(written)) {
            throw new IllegalStateException("the kernel wrote no core at " + written + " (core_pattern '" + pattern + "')");
        }
        Path core = dir.resolve("kernel.core");
        try {
            Files.move(written, core, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot move " + written + " to " + core, e);
        }
        return core;
    }

    /**
     * Sets the kernel's default coredump_filter, which gcore honours too: file-backed text and
     * read-only data stay out of the core and must come from the mapped files. A target inherits the
     * test JVM's filter, which HotSpot widens to file-backed mappings.
     */
    private static void useDefaultFilter(long pid) {
        try {
            Files.writeString(Path.of("/proc", Long.toString(pid), "coredump_filter"), DEFAULT_COREDUMP_FILTER);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot set the coredump_filter of process " + pid, e);
        }
    }

    private static void run(List<String> command, Path log, String what) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())).start();
            if (!p.waitFor(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly().waitFor();
                throw new IllegalStateException(what + " timed out after " + TIMEOUT);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException(what + " failed (exit " + p.exitValue() + "): " + String.join(" ", command)
                        + "\n--- output ---\n" + read(log));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + what, e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }
}
