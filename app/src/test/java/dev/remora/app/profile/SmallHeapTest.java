package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A profile that keeps every sample, in a heap far too small for the run: the run stops early,
 * says why, and writes what it collected, whole; never an OutOfMemoryError that writes nothing.
 * The same run keeping counts fits the same heap to the end: what it keeps does not grow with time.
 */
@Tag("targets")
class SmallHeapTest {

    /** Room for Remora itself (some 10 MiB live) and a few seconds of 100 threads' samples, no more. */
    private static final String HEAP = "-Xmx32m";

    @Test
    void aTimelineThatOutgrowsTheHeapStopsAndIsWrittenWhole() throws Exception {
        TargetInterpreter python = TargetInterpreters.all().getFirst();
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-heap-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/live_threads.py"),
                    List.of("100", "3600"))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                ParkedTarget.awaitReady(target, System.nanoTime() + ParkedTarget.READY_TIMEOUT.toNanos());
                Path gecko = dir.host("heap.json");
                Run timeline = remora(dir, "attach", "-a", "-r", "1khz", "-d", "120", "--gecko", "-o", gecko.toString(),
                        Long.toString(target.pid()));
                assertThat(timeline.exit()).as(timeline.err()).isZero();
                assertThat(timeline.err()).contains("Stopped early: the profile filled", "Profile written to " + gecko)
                        .doesNotContain("OutOfMemoryError");
                JsonNode written = new ObjectMapper().readTree(gecko.toFile());
                long samples = 0;
                for (JsonNode thread : written.get("threads")) {
                    samples += thread.get("samples").get("time").size();
                }
                assertThat(timeline.err()).contains("Captured " + samples + " samples");

                Path collapsed = dir.host("heap.txt");
                Run counts = remora(dir, "attach", "-a", "-r", "1khz", "-d", "15", "--collapsed", "-o", collapsed.toString(),
                        Long.toString(target.pid()));
                assertThat(counts.exit()).as(counts.err()).isZero();
                assertThat(counts.err()).doesNotContain("Stopped early").contains("Profile written to " + collapsed);
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private record Run(int exit, String err) {}

    /** {@code remora ARGS} in a JVM of its own, with a small heap. */
    private static Run remora(ScratchDir dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                HEAP, "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-cp", System.getProperty("java.class.path"), "dev.remora.app.Main"));
        command.addAll(List.of(args));
        Path err = dir.host("remora-" + args[args.length - 2].hashCode() + ".err");
        Process remora = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(err.toFile()).start();
        assertThat(remora.waitFor(300, TimeUnit.SECONDS)).as("remora ended").isTrue();
        return new Run(remora.exitValue(), Files.readString(err, StandardCharsets.UTF_8));
    }
}
