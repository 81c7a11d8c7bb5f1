package dev.remora.app.profile;

import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code remora run} and {@code attach} end to end: the target's life, Ctrl-C, bad starts. */
@Tag("targets")
class RunAndAttachTest {

    @TempDir
    Path dir;

    /** pyenv's shared-library 3.13 runs without a chroot, so {@code run} can launch it directly. */
    private static Path directPython() {
        return TargetInterpreters.all().stream().filter(t -> !t.chrooted()).map(t -> Path.of(t.exe())).findFirst()
                .orElseThrow(() -> new IllegalStateException("no interpreter that runs outside a chroot is provisioned"));
    }

    @Test
    void runProfilesAScriptUntilItExitsAndWritesTheProfile() throws Exception {
        Path script = copy("targets/short_lived.py");
        Path profile = dir.resolve("short.txt");
        RemoraCli run = RemoraCli.run("run", "--python", directPython(), "--collapsed", "-o", profile, script);

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(run.err()).contains("exited.").contains("Captured ").contains("Profile written to " + profile);
        List<String> lines = Files.readAllLines(profile);
        long spinning = lines.stream().filter(l -> l.contains("short_lived.py:spin_until:"))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
        long total = lines.stream().mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
        // The interpreter's own start-up is sampled too, for longer on a slow machine: count the script's samples.
        long inScript = lines.stream().filter(l -> l.contains("short_lived.py:"))
                .mapToLong(l -> Long.parseLong(l.substring(l.lastIndexOf(' ') + 1))).sum();
        assertThat(total).isGreaterThan(300);
        assertThat(spinning).isGreaterThan(inScript * 9 / 10);
    }

    @Test
    void runPassesArgumentsAfterTheScriptToTheScript() throws Exception {
        Path script = dir.resolve("echo_args.py");
        Files.writeString(script, "import sys, time\nopen(sys.argv[1], 'w').write(' '.join(sys.argv[2:]))\ntime.sleep(2)\n");
        Path seen = dir.resolve("seen.txt");
        RemoraCli run = RemoraCli.run("run", "--python", directPython(), "-o", dir.resolve("p.pstats"), script, seen, "-a", "--mode", "x");

        assertThat(run.exitCode()).as(run.err()).isZero();
        assertThat(Files.readString(seen)).isEqualTo("-a --mode x");
    }

    @Test
    void aTargetThatFailsToStartHasItsErrorShown() throws Exception {
        Path script = copy("targets/fails_at_start.py");
        try (RemoraProcess remora = RemoraProcess.start(dir, "run", "--python", directPython().toString(), script.toString())) {
            assertThat(remora.waitFor()).isNotZero();
            // Remora attaches within some 50 ms: the script may fail before or just after that.
            assertThat(remora.err()).contains("remora-test: this target refuses to start")
                    .contains("remora: the target exited with code 1")
                    .doesNotContain("\tat ");
        }
    }

    @Test
    void aScriptThatFailsAfterItWasProfiledFailsTheRunAndKeepsItsProfile() throws Exception {
        Path script = dir.resolve("fails_later.py");
        Files.writeString(script, "import time\ntime.sleep(1)\nraise SystemExit(3)\n");
        Path profile = dir.resolve("later.txt");
        RemoraCli run = RemoraCli.run("run", "--python", directPython(), "--collapsed", "-o", profile, script);

        assertThat(run.exitCode()).as(run.err()).isEqualTo(1);
        assertThat(run.err()).contains("Profile written to " + profile).endsWith("remora: the target exited with code 3\n");
        assertThat(Files.readString(profile)).contains("fails_later.py:<module>:2");
    }

    @Test
    void ctrlCStopsSamplingAndKeepsTheProfile() throws Exception {
        Path script = copy("targets/runs_until_stopped.py");
        Process target = new ProcessBuilder(directPython().toString(), script.toString()).start();
        try {
            assertThat(new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8)).readLine())
                    .isEqualTo("READY");
            Path profile = dir.resolve("interrupted.txt");
            try (RemoraProcess remora = RemoraProcess.start(dir, "attach", "--realtime-stats", "--collapsed", "-o",
                    profile.toString(), Long.toString(target.pid()))) {
                remora.awaitErr("Ctrl-C stops and writes the profile.");
                // The live line, drawn once sampling has gone on for a second: there are samples to keep.
                remora.awaitErr("Samples: ");
                remora.interrupt();
                int code = remora.waitFor();
                assertThat(remora.err()).contains("Interrupted by user.").contains("Profile written to");
                // Like any program stopped by SIGINT: 128 + 2.
                assertThat(code).isEqualTo(130);
            }
            assertThat(Files.readString(profile)).contains("runs_until_stopped.py:spin_forever:");
            assertThat(target.isAlive()).as("attach leaves the target running").isTrue();
        } finally {
            target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void attachEndsCleanlyWhenTheTargetExits() throws Exception {
        Path script = copy("targets/short_lived.py");
        // Long enough to outlast the wait for its runtime and a cold attach on a slow machine.
        Process target = new ProcessBuilder(directPython().toString(), script.toString(), "3").start();
        try {
            Path profile = dir.resolve("exit.txt");
            awaitPythonRuntime(target.pid());
            RemoraCli run = RemoraCli.run("attach", "--collapsed", "-o", profile, target.pid());
            assertThat(run.exitCode()).as(run.err()).isZero();
            assertThat(run.err()).contains("Sampling process %d (CPython 3.".formatted(target.pid()))
                    .contains(" at 1 kHz until it exits; Ctrl-C stops")
                    .contains("Process %d exited.".formatted(target.pid()));
            assertThat(Files.readString(profile)).contains("short_lived.py:spin_until:");
        } finally {
            target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void attachWithoutAllThreadsSaysHowManyPythonThreadsItLeavesOut() throws Exception {
        TargetInterpreter python = TargetInterpreters.all().getFirst();
        try (dev.remora.app.testing.ParkedTarget target = dev.remora.app.testing.ParkedThreads.start(python)) {
            int others = dev.remora.app.testing.ParkedThreads.THREAD_NAMES.size() - 1;
            RemoraCli mainOnly = RemoraCli.run("attach", "-d", "0.2", "--collapsed", "-o", dir.resolve("main.txt"), target.pid());
            RemoraCli all = RemoraCli.run("attach", "-a", "-d", "0.2", "--collapsed", "-o", dir.resolve("all.txt"), target.pid());

            assertThat(mainOnly.exitCode()).as(mainOnly.err()).isZero();
            assertThat(mainOnly.err()).contains("Note: only its main thread is sampled; %d other Python threads are not (-a samples every thread)."
                    .formatted(others));
            assertThat(all.exitCode()).as(all.err()).isZero();
            assertThat(all.err()).doesNotContain("Note: only its main thread");
        }
    }

    @Test
    void anUnwritableOutputFailsBeforeSampling() throws Exception {
        RemoraCli run = RemoraCli.run("attach", "--collapsed", "-o", "/nonexistent-dir/x.txt", ProcessHandle.current().pid());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).startsWith("remora: cannot write /nonexistent-dir/x.txt").hasLineCount(1);
    }

    @Test
    void aBadSamplingRateIsOneLine() {
        RemoraCli run = RemoraCli.run("attach", "-r", "fast", "1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).contains("invalid sampling rate 'fast'").doesNotContain("\tat ");
    }

    private static void awaitPythonRuntime(long pid) throws InterruptedException {
        for (int i = 0; i < 200; i++) {
            if (RemoraCli.run("dump", pid).exitCode() == 0) {
                return;
            }
            Thread.sleep(5);
        }
        throw new AssertionError("the target never became readable");
    }

    private Path copy(String resource) throws IOException {
        Path target = dir.resolve(resource.substring(resource.lastIndexOf('/') + 1));
        try (InputStream in = getClass().getClassLoader().getResourceAsStream(resource)) {
            Files.copy(in, target);
        }
        return target;
    }
}
