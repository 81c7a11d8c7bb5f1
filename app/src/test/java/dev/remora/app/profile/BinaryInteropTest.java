package dev.remora.app.profile;

import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * CPython 3.15's binary captures both ways: what Remora captures, CPython's {@code replay} reads as
 * Remora's own {@code replay} does, and what CPython's profiler captures, Remora replays as CPython
 * does; compared line for line in collapsed form, with and without zstd.
 */
@Tag("targets")
class BinaryInteropTest {

    @ParameterizedTest(name = "compression {0}")
    @ValueSource(strings = {"zstd", "none"})
    void remorasCaptureReplaysAlikeInBoth(String compression) throws Exception {
        withTarget((python, dir, target) -> {
            RemoraCli capture = RemoraCli.run("attach", "--binary", "--compression", compression, "-a", "-d", "1",
                    "-o", dir.host("capture.bin"), target.pid());
            assertThat(capture.exitCode()).as(capture.err()).isZero();
            assertThat(capture.err()).contains("Profile written to");
            List<String> cpython = cpythonReplay(python, dir, "capture.bin");
            List<String> remora = remoraReplay(dir, "capture.bin");
            assertThat(remora).as("Remora's replay").containsExactlyInAnyOrderElementsOf(cpython);
            assertThat(String.join("\n", remora)).contains("leaf_é", "worker");
            // And both read what the target did: its main thread's stacks go <module>, outer, middle, leaf_é
            // (but for the few impossible stacks a walk may meet, at most 0.1% as PossibleStacksTest bounds them).
            List<String> calls = List.of("<module>", "outer", "middle", "leaf_é");
            long samples = 0;
            List<String> impossible = new java.util.ArrayList<>();
            long impossibleSamples = 0;
            for (String line : cpython) {
                long count = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
                samples += count;
                if (line.contains(":outer:")) {
                    List<String> functions = java.util.Arrays.stream(line.substring(0, line.lastIndexOf(' ')).split(";"))
                            .skip(1).map(frame -> frame.split(":")[1]).toList();
                    if (!calls.subList(0, Math.min(calls.size(), functions.size())).equals(functions)) {
                        impossible.add(line);
                        impossibleSamples += count;
                    }
                }
            }
            assertThat(impossibleSamples * 1000).as("stacks off the target's calls: %s", impossible).isLessThanOrEqualTo(samples);
        });
    }

    @ParameterizedTest(name = "compression {0}")
    @ValueSource(strings = {"zstd", "none"})
    void cpythonsCaptureReplaysAlikeInBoth(String compression) throws Exception {
        withTarget((python, dir, target) -> {
            run(python.command("-m", "profiling.sampling", "attach", "--binary", "--compression", compression, "-a",
                    "-d", "1", "-o", dir.inRoot("cpython.bin"), Long.toString(target.pid())));
            List<String> cpython = cpythonReplay(python, dir, "cpython.bin");
            List<String> remora = remoraReplay(dir, "cpython.bin");
            assertThat(remora).as("Remora's replay").containsExactlyInAnyOrderElementsOf(cpython);
            assertThat(cpython).isNotEmpty();
        });
    }

    private interface WithTarget {
        void run(TargetInterpreter python, ScratchDir dir, Process target) throws Exception;
    }

    /** Runs {@code body} with binary_capture.py started under CPython 3.15 and ready. */
    private static void withTarget(WithTarget body) throws Exception {
        TargetInterpreter python = python315();
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-binary-")) {
            Process target = start(python, dir);
            try {
                body.run(python, dir, target);
            } finally {
                ParkedTarget.kill(target);
            }
        }
    }

    private static Process start(TargetInterpreter python, ScratchDir dir) throws Exception {
        Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/binary_capture.py"), List.of()))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        ParkedTarget.awaitReady(target, System.nanoTime() + ParkedTarget.READY_TIMEOUT.toNanos());
        return target;
    }

    private static List<String> cpythonReplay(TargetInterpreter python, ScratchDir dir, String capture) throws Exception {
        run(python.command("-m", "profiling.sampling", "replay", "--collapsed", "-o", dir.inRoot("cpython-" + capture + ".txt"),
                dir.inRoot(capture)));
        return Files.readAllLines(dir.host("cpython-" + capture + ".txt"));
    }

    private static List<String> remoraReplay(ScratchDir dir, String capture) throws Exception {
        Path out = dir.host("remora-" + capture + ".txt");
        RemoraCli replay = RemoraCli.run("replay", "--collapsed", "-o", out, dir.host(capture));
        assertThat(replay.exitCode()).as(replay.err()).isZero();
        return Files.readAllLines(out);
    }

    private static void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as("%s: %s", command, output).isZero();
    }

    private static TargetInterpreter python315() {
        return TargetInterpreters.all().stream().filter(t -> t.name().equals("debian-3.15")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no debian-3.15 among the targets"));
    }
}
