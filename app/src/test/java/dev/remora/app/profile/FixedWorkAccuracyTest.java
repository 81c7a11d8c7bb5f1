package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
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
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Open: on a target that gives each function a fixed amount of work per call ({@code
 * targets/fixed_work.py}: JSON round trips of a 150-item dict, regex with a generator expression,
 * fib(18), 12000 one-line calls, short sleeps), each function's share of the profile must match the
 * share the target measured itself (perf_counter in wall mode, thread_time in cpu mode). Here 12 of
 * its 16 cases fail, by 2 to 6 points: JSON under on most versions in both modes (on 3.15, 1.5 points
 * in wall mode and 3-4 in cpu mode), short sleeps over in wall mode. Run it by name with
 * -Dremora.test.excludedGroups=none.
 */
@Tag("targets")
@Tag("open")
class FixedWorkAccuracyTest {

    private static final double TARGET_SECONDS = 7;
    private static final String PROFILE_SECONDS = "4";
    private static final List<String> FUNCTIONS = List.of("json_round_trips", "regex_generator", "recursion", "tiny_calls",
            "short_sleeps");

    static Stream<Arguments> interpretersAndModes() {
        return TargetInterpreters.all().stream().flatMap(python -> Stream.of(Arguments.of(python, "wall"),
                Arguments.of(python, "cpu")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("interpretersAndModes")
    void sharesMatchWhatTheTargetMeasured(TargetInterpreter python, String mode) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-fixed-work-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/fixed_work.py"),
                    List.of(Double.toString(TARGET_SECONDS), mode))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            RemoraCli run;
            JsonNode measured;
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                run = RemoraCli.run("attach", "-d", PROFILE_SECONDS, "--mode", mode, "--collapsed", "-o",
                        dir.host("profile.txt"), target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                measured = new ObjectMapper().readTree(out.readLine());
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            ProfileAccuracyTest.Shares profiled = ProfileAccuracyTest.Shares.of(Files.readAllLines(dir.host("profile.txt")));
            StringBuilder shares = new StringBuilder();
            for (String function : FUNCTIONS) {
                shares.append(String.format(" %s=%.4f", function, profiled.share(function)));
            }
            for (String function : FUNCTIONS) {
                assertThat(profiled.share(function)).as("%s share in %s mode (measured %s, profiled%s)", function, mode, measured, shares)
                        .isCloseTo(measured.get(function).asDouble(), within(0.02));
            }
        }
    }
}
