package dev.remora.app.dump;

import dev.remora.app.testing.UnsupportedPython;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad input gets one line on stderr and a non-zero exit, never a stack trace. */
@Tag("targets")
class DumpErrorsTest {

    @Test
    void aPidWithNoProcess() {
        RemoraCli run = RemoraCli.run("dump", Integer.MAX_VALUE - 7);
        assertOneLineError(run, 1, "remora: no process with pid " + (Integer.MAX_VALUE - 7));
    }

    @Test
    void aProcessThatIsNotPython() throws Exception {
        Process sleep = new ProcessBuilder("sleep", "60").start();
        try {
            RemoraCli run = RemoraCli.run("dump", sleep.pid());
            assertOneLineError(run, 1, "remora: process %d is not a CPython process".formatted(sleep.pid()));
        } finally {
            sleep.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void anUnsupportedPythonIsNamed() throws Exception {
        Path old = UnsupportedPython.executable();
        Process python = new ProcessBuilder(old.toString(), "-c", "import sys, time; print(flush=True); time.sleep(60)").start();
        try {
            python.getInputStream().read();
            RemoraCli run = RemoraCli.run("dump", "--backend", "procmem", python.pid());
            assertOneLineError(run, 1, "remora: process %d runs CPython %s".formatted(python.pid(), UnsupportedPython.VERSION));
            assertThat(run.err()).contains("not supported (" + UnsupportedPython.SUPPORTED + ")");
        } finally {
            python.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPidThatIsNotANumber() {
        RemoraCli run = RemoraCli.run("dump", "abc");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("remora: Invalid value for positional parameter at index 0 (PID): 'abc'");
        assertNoStackTrace(run);
    }

    @Test
    void anUnknownBackend() {
        RemoraCli run = RemoraCli.run("dump", "--backend", "ptrace", "1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("--backend").contains("ptrace");
        assertNoStackTrace(run);
    }

    private static void assertOneLineError(RemoraCli run, int code, String start) {
        assertThat(run.exitCode()).isEqualTo(code);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).startsWith(start).hasLineCount(1);
    }

    private static void assertNoStackTrace(RemoraCli run) {
        assertThat(run.err()).doesNotContain("\tat ").doesNotContain("Exception");
    }
}
