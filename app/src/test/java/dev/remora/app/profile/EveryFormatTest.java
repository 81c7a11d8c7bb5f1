package dev.remora.app.profile;

import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Each output format, written from a real profile of a real target, names the target's hot function. */
@Tag("targets")
class EveryFormatTest {

    private static final List<String> FORMATS = List.of("pstats", "collapsed", "flamegraph", "speedscope", "gecko", "pprof", "jsonl",
            "binary", "heatmap");

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void everyFormatHoldsTheHotFunction(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-formats-")) {
            String script = dir.copyResource("targets/runs_until_stopped.py");
            Process target = new ProcessBuilder(python.scriptCommand(script, List.of())).start();
            try {
                assertThat(new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8)).readLine())
                        .isEqualTo("READY");
                List<String> problems = new ArrayList<>();
                for (String format : FORMATS) {
                    Path file = dir.host("profile-" + format);
                    RemoraCli run = RemoraCli.run("attach", "-d", "0.5", "-a", "--" + format, "-o", file, target.pid());
                    assertThat(run.exitCode()).as(format + ": " + run.err()).isZero();
                    assertThat(run.err()).as(format).contains("Profile written to " + file);
                    String content = format.equals("pprof") ? gunzip(file) : Files.readString(file, StandardCharsets.ISO_8859_1);
                    if (!content.contains("spin_forever")) {
                        problems.add(format);
                    }
                }
                assertThat(problems).as("formats without the hot function").isEmpty();
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private static String gunzip(Path file) throws Exception {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(Files.readAllBytes(file)))) {
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}
