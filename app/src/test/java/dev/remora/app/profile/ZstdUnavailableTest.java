package dev.remora.app.profile;

import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A machine where zstd's native library cannot load (here: a temporary directory that does not exist,
 * so it cannot be unpacked): --binary captures uncompressed, and an explicit --compression zstd fails
 * in one line before anything is sampled.
 */
@Tag("targets")
class ZstdUnavailableTest {

    private record Run(int exitCode, String err) {}

    @Test
    void autoCapturesUncompressedAndAnExplicitZstdFailsInOneLine() throws Exception {
        TargetInterpreter python = TargetInterpreters.all().stream().filter(t -> t.name().equals("debian-3.15")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no debian-3.15 among the targets"));
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-zstd-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/runs_until_stopped.py"), List.of()))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                assertThat(new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8)).readLine())
                        .isEqualTo("READY");
                Path auto = dir.host("auto.bin");
                Run captured = remoraWithoutZstd(dir.host(), "attach", "-d", "0.3", "--binary", "-o", auto.toString(),
                        Long.toString(target.pid()));
                assertThat(captured.exitCode()).as(captured.err()).isZero();
                RemoraCli replay = RemoraCli.run("replay", "--collapsed", "-o", dir.host("auto.txt"), auto);
                assertThat(replay.exitCode()).as(replay.err()).isZero();
                assertThat(Files.readString(dir.host("auto.txt"))).contains("spin_forever");

                Path zstd = dir.host("zstd.bin");
                Run refused = remoraWithoutZstd(dir.host(), "attach", "-d", "0.3", "--binary", "--compression", "zstd",
                        "-o", zstd.toString(), Long.toString(target.pid()));
                assertThat(refused.exitCode()).isNotZero();
                List<String> own = refused.err().lines().filter(l -> !l.startsWith("WARNING:")).toList();
                assertThat(own).as(refused.err()).hasSize(1);
                assertThat(own.getFirst()).startsWith("remora: --compression zstd: zstd cannot load here: ");
                assertThat(zstd).doesNotExist();
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Remora in a JVM whose temporary directory does not exist, where zstd-jni cannot unpack its library. */
    private static Run remoraWithoutZstd(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow",
                "-Djava.io.tmpdir=" + dir.resolve("no-such-dir"), "-cp", System.getProperty("java.class.path"),
                "dev.remora.app.Main"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        return new Run(p.exitValue(), err);
    }
}
