package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * A target measures how its wall time splits between three functions; the profile must find the same
 * split. In cpu mode the function that sleeps must all but vanish.
 */
@Tag("targets")
class ProfileAccuracyTest {

    private static final double TARGET_SECONDS = 6;
    private static final String PROFILE_SECONDS = "4";

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void wallModeSharesMatchWhatTheTargetMeasured(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-shares-")) {
            Path profile = dir.host("wall.txt");
            Shares profiled;
            JsonNode measured;
            Process target = start(python, dir);
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                RemoraCli run = RemoraCli.run("attach", "-d", PROFILE_SECONDS, "--collapsed", "-o", profile, target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                assertThat(run.err()).contains("Captured ").contains("Error rate: 0.00%");
                measured = new ObjectMapper().readTree(out.readLine());
                profiled = Shares.of(Files.readAllLines(profile));
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            assertThat(profiled.total()).as("samples at 1 kHz for %s s", PROFILE_SECONDS).isGreaterThan(2000);
            for (String function : List.of("work_a", "work_b", "rest")) {
                assertThat(profiled.share(function)).as(function)
                        .isCloseTo(measured.get(function).asDouble(), within(0.02));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void cpuModeLeavesTheSleepingFunctionOut(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-cpu-")) {
            Path profile = dir.host("cpu.txt");
            Process target = start(python, dir);
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                RemoraCli run = RemoraCli.run("attach", "-d", "2", "--mode", "cpu", "--collapsed", "-o", profile, target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            Shares profiled = Shares.of(Files.readAllLines(profile));
            assertThat(profiled.total()).isGreaterThan(300);
            assertThat(profiled.share("rest")).isLessThan(0.02);
            assertThat(profiled.share("work_b")).isGreaterThan(0.5);
        }
    }

    private static Process start(TargetInterpreter python, ScratchDir dir) throws Exception {
        String script = dir.copyResource("targets/shares.py");
        return new ProcessBuilder(python.scriptCommand(script, List.of(Double.toString(TARGET_SECONDS))))
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    }

    /** Inclusive share of samples per function, from collapsed stacks. */
    record Shares(Map<String, Long> counts, long total) {

        static Shares of(List<String> collapsed) {
            Map<String, Long> counts = new java.util.HashMap<>();
            long total = 0;
            for (String line : collapsed) {
                int space = line.lastIndexOf(' ');
                long n = Long.parseLong(line.substring(space + 1));
                total += n;
                java.util.Set<String> functions = new java.util.HashSet<>();
                for (String frame : line.substring(0, space).split(";")) {
                    String[] parts = frame.split(":");
                    if (parts.length >= 3) {
                        functions.add(parts[parts.length - 2]);
                    }
                }
                functions.forEach(f -> counts.merge(f, n, Long::sum));
            }
            return new Shares(counts, total);
        }

        /** From a jsonl profile: frame records name the frames, window records count each stack. */
        static Shares ofJsonl(List<String> records) throws java.io.IOException {
            ObjectMapper json = new ObjectMapper();
            Map<Integer, String> names = new java.util.HashMap<>();
            Map<String, Long> counts = new java.util.HashMap<>();
            long total = 0;
            for (String line : records) {
                JsonNode record = json.readTree(line);
                switch (record.get("type").asText()) {
                    case "frames" -> record.get("frames").forEach(f -> names.put(f.get("frame_id").asInt(), f.get("function").asText()));
                    case "window" -> {
                        for (JsonNode thread : record.get("threads")) {
                            for (JsonNode stack : thread.get("stacks")) {
                                long n = stack.get("count").asLong();
                                total += n;
                                java.util.Set<String> functions = new java.util.HashSet<>();
                                stack.get("frames").forEach(f -> functions.add(names.get(f.asInt())));
                                functions.forEach(f -> counts.merge(f, n, Long::sum));
                            }
                        }
                    }
                    default -> { }
                }
            }
            return new Shares(counts, total);
        }

        double share(String function) {
            return total == 0 ? 0 : counts.getOrDefault(function, 0L) / (double) total;
        }

        /** The part of {@code caller}'s samples that also hold {@code function} (called only under it). */
        double within(String function, String caller) {
            long under = counts.getOrDefault(caller, 0L);
            return under == 0 ? 0 : counts.getOrDefault(function, 0L) / (double) under;
        }
    }
}
