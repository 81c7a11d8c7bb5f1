package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.testing.SampledWindow;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * On a target that gives each function a fixed amount of work per call ({@code targets/fixed_work.py}:
 * JSON round trips of a 150-item dict, regex with a generator expression, fib(18), 12000 one-line
 * calls, short sleeps), each function's share of the profile must match the share the target measured
 * itself over exactly the window sampled (perf_counter in wall mode, thread_time in cpu mode).
 */
@Tag("targets")
class FixedWorkAccuracyTest {

    private static final double TARGET_SECONDS = 11;
    private static final String PROFILE_SECONDS = "8"; // per-call times vary: 8000 samples keep chance under a point
    private static final List<String> FUNCTIONS = List.of("json_round_trips", "regex_generator", "recursion", "tiny_calls",
            "short_sleeps");

    /** Wall mode on every interpreter but those of heap frame objects (3.8-3.10), whose fib(18) is open (see docs/accuracy.md). */
    static Stream<Arguments> wallMode() {
        return TargetInterpreters.all().stream().filter(python -> python.minor() > 10).map(python -> Arguments.of(python, "wall"));
    }

    /**
     * Open: cpu mode, 1-3 points off (JSON under, regex over), and 3.8-3.10's wall mode (fib(18) 3 points
     * under: its walks are read again past its end, and the function after it gets the ticks). Run it by name with -Dremora.test.excludedGroups=none.
     */
    static Stream<Arguments> openCases() {
        return TargetInterpreters.all().stream().flatMap(python -> python.minor() <= 10
                ? Stream.of(Arguments.of(python, "wall"), Arguments.of(python, "cpu")) : Stream.of(Arguments.of(python, "cpu")));
    }

    @Tag("open")
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("openCases")
    void sharesMatchWhatTheTargetMeasuredInOpenCases(TargetInterpreter python, String mode) throws Exception {
        sharesMatchWhatTheTargetMeasured(python, mode);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("wallMode")
    void sharesMatchWhatTheTargetMeasured(TargetInterpreter python, String mode) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-fixed-work-")) {
            dir.copyResource("targets/timed_calls.py");
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/fixed_work.py"),
                    List.of(Double.toString(TARGET_SECONDS), mode))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            Path profile = dir.host("profile.jsonl");
            JsonNode measured;
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                try (RemoraProcess run = RemoraProcess.profile(dir.host(), "attach", "-d", PROFILE_SECONDS, "--mode", mode,
                        "--jsonl", "-o", profile.toString(), Long.toString(target.pid()))) {
                    assertThat(run.waitFor()).as(run.err()).isZero();
                }
                measured = SampledWindow.ofJsonl(profile).askTarget(target, out);
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            List<String> records = Files.readAllLines(profile);
            ProfileAccuracyTest.Shares profiled = ProfileAccuracyTest.Shares.ofJsonl(records);
            // The sampler's own account (ticks missed, errors) and how busy the machine was: what a failure needs.
            StringBuilder shares = new StringBuilder(" ").append(records.getLast()).append(" loadavg ")
                    .append(Files.readString(Path.of("/proc/loadavg")).strip()).append(';');
            for (String function : FUNCTIONS) {
                shares.append(String.format(" %s=%.4f", function, profiled.share(function)));
            }
            for (String function : FUNCTIONS) {
                assertThat(profiled.share(function))
                        .as("%s: %s share in %s mode (measured %s, profiled%s)", python, function, mode, measured, shares)
                        .isCloseTo(measured.get(function).asDouble(), within(0.02));
            }
        }
    }
}
