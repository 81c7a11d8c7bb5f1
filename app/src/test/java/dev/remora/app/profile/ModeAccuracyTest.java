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
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The gil and exception modes against a worker that times itself: in gil mode the ticks that become
 * samples are the share of time the worker held the GIL, split between its functions as it measured;
 * in exception mode they are the time it spent handling an exception, all of it in that function,
 * and a target that does not show handled exceptions is refused rather than profiled as empty.
 */
@Tag("targets")
class ModeAccuracyTest {

    private static final Pattern TICKS = Pattern.compile("Captured (\\d+) samples? in .* \\((\\d+) ticks?\\)");
    private static final List<String> HOLDERS = List.of("gil_a", "gil_b", "handling_exception");

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    static List<TargetInterpreter> exportingExceptions() {
        return TargetInterpreters.all().stream().filter(python -> python.isAtLeast(3, 13)).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void gilModeKeepsTheTimeTheWorkerHeldTheGil(TargetInterpreter python) throws Exception {
        Run run = profile(python, "gil");
        double held = HOLDERS.stream().mapToDouble(f -> run.measured.get(f).asDouble()).sum();
        assertThat(run.kept()).as("ticks kept, against the share of time the worker held the GIL (%s)\n%s", run.measured, run.err)
                .isCloseTo(held, within(0.03));
        for (String function : HOLDERS) {
            assertThat(run.shares.share(function)).as("%s's share of the GIL's samples (measured %s)", function, run.measured)
                    .isCloseTo(run.measured.get(function).asDouble() / held, within(0.03));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("exportingExceptions")
    void exceptionModeKeepsTheTimeAnExceptionWasHandled(TargetInterpreter python) throws Exception {
        Run run = profile(python, "exception");
        assertThat(run.kept()).as("ticks kept, against the share of time an exception was handled (%s)\n%s", run.measured, run.err)
                .isCloseTo(run.measured.get("handling_exception").asDouble(), within(0.03));
        assertThat(run.shares.share("handling_exception")).isGreaterThan(0.97);
    }

    static List<TargetInterpreter> hidingExceptions() {
        return TargetInterpreters.all().stream().filter(python -> !python.isAtLeast(3, 13)).toList();
    }

    /** Where a thread state does not show the exception it handles, an exception profile is refused, not left empty. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("hidingExceptions")
    void exceptionModeIsRefusedWhereTheTargetDoesNotShowHandledExceptions(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-modes-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/mode_shares.py"), List.of("6")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                assertThat(new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8)).readLine())
                        .isEqualTo("READY");
                RemoraCli run = RemoraCli.run("attach", "-d", "1", "--mode", "exception", "--collapsed", "-o",
                        dir.host("profile.txt"), target.pid());
                assertThat(run.exitCode()).isNotZero();
                assertThat(run.err().strip()).doesNotContain("\n")
                        .startsWith("remora: CPython %d.%d".formatted(python.major(), python.minor()))
                        .endsWith("so an exception-mode profile of it would be empty");
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private record Run(JsonNode measured, ProfileAccuracyTest.Shares shares, long samples, long ticks, String err) {
        double kept() {
            return samples / (double) ticks;
        }
    }

    private static Run profile(TargetInterpreter python, String mode) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-modes-")) {
            Path profile = dir.host("profile.txt");
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/mode_shares.py"), List.of("6")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                RemoraCli run = RemoraCli.run("attach", "-d", "4", "-a", "--mode", mode, "--collapsed", "-o", profile, target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                JsonNode measured = new ObjectMapper().readTree(out.readLine());
                Matcher counts = TICKS.matcher(run.err());
                assertThat(counts.find()).as(run.err()).isTrue();
                return new Run(measured, ProfileAccuracyTest.Shares.of(Files.readAllLines(profile)),
                        Long.parseLong(counts.group(1)), Long.parseLong(counts.group(2)), run.err());
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
