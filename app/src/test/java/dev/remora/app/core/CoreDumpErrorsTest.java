package dev.remora.app.core;

import dev.remora.app.testing.UnsupportedPython;
import dev.remora.app.testing.CoreFiles;
import dev.remora.app.dump.RemoraCli;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad cores and bad combinations of arguments: one line on stderr, a non-zero exit, no stack trace. */
@Tag("targets")
class CoreDumpErrorsTest {

    @TempDir
    Path dir;

    @Test
    void aCoreOfAProcessThatIsNotPython() throws Exception {
        Path core = sleepCore();
        RemoraCli run = RemoraCli.run("dump", "--core", core);
        assertOneLineError(run, 1, "remora: process %d is not a CPython process".formatted(pidOf(core)));
    }

    @Test
    void aCoreOfAnUnsupportedPythonNamesItsVersion() throws Exception {
        Path old = UnsupportedPython.executable();
        Process python = new ProcessBuilder(old.toString(), "-c", "import time; print(flush=True); time.sleep(60)").start();
        try {
            python.getInputStream().read();
            Path core = CoreFiles.gcore(python.pid(), dir);
            RemoraCli run = RemoraCli.run("dump", "--core", core);
            assertOneLineError(run, 1, "remora: process %d runs CPython %s".formatted(python.pid(), UnsupportedPython.VERSION));
            assertThat(run.err()).contains("not supported (" + UnsupportedPython.SUPPORTED + ")");
        } finally {
            python.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aTruncatedCore() throws Exception {
        byte[] whole = Files.readAllBytes(sleepCore());
        Path half = Files.write(dir.resolve("half.core"), Arrays.copyOf(whole, whole.length / 2));
        assertOneLineError(RemoraCli.run("dump", "--core", half), 1, "remora: " + half + " is truncated: ");
        Path header = Files.write(dir.resolve("header.core"), Arrays.copyOf(whole, 40));
        assertOneLineError(RemoraCli.run("dump", "--core", header), 1, "remora: " + header + " is truncated: the ELF header");
    }

    @Test
    void aFileThatIsNotElf() throws Exception {
        Path text = Files.writeString(dir.resolve("notes.txt"), "not a core\n");
        assertOneLineError(RemoraCli.run("dump", "--core", text), 1,
                "remora: " + text + " is not a core file: it does not start with the ELF magic");
    }

    @Test
    void anElfFileThatIsNotACore() {
        assertOneLineError(RemoraCli.run("dump", "--core", "/bin/true"), 1,
                "remora: /bin/true is not a core file: it is an ELF shared object or executable (ET_DYN)");
    }

    @Test
    void aCoreThatIsNotThere() {
        Path missing = dir.resolve("core.404");
        assertOneLineError(RemoraCli.run("dump", "--core", missing), 1, "remora: cannot read core " + missing + ": no such file");
    }

    @Test
    void exactlyOneOfPidAndCore() {
        assertOneLineError(RemoraCli.run("dump"), 2, "remora: give the PID of a running Python process, or --core FILE");
        assertOneLineError(RemoraCli.run("dump", "--core", "/bin/true", "123"), 2, "remora: give either a PID or --core FILE, not both");
    }

    @Test
    void flagsThatDoNotFitTheTarget() {
        assertOneLineError(RemoraCli.run("dump", "--core", "/bin/true", "--backend", "procmem"), 2,
                "remora: --backend applies to running processes; a core is read from its file");
        assertOneLineError(RemoraCli.run("dump", "--core", "/bin/true", "--native-binding", "jna"), 2,
                "remora: --native-binding applies to running processes; a core is read from its file");
        assertOneLineError(RemoraCli.run("dump", "--sysroot", "/", "123"), 2, "remora: --sysroot applies only with --core FILE");
        Path nowhere = dir.resolve("nowhere");
        assertOneLineError(RemoraCli.run("dump", "--core", "/bin/true", "--sysroot", nowhere), 2,
                "remora: --sysroot " + nowhere + " is not a directory");
    }

    /** gcore of a short-lived {@code sleep}: a real core of a process with no Python in it. */
    private Path sleepCore() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            return CoreFiles.gcore(sleep.pid(), dir);
        } finally {
            sleep.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static long pidOf(Path gcore) {
        String name = gcore.getFileName().toString();
        return Long.parseLong(name.substring(name.lastIndexOf('.') + 1));
    }

    private static void assertOneLineError(RemoraCli run, int code, String start) {
        assertThat(run.exitCode()).as(run.err()).isEqualTo(code);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith(start).hasLineCount(1).doesNotContain("\tat ").doesNotContain("Exception");
    }
}
