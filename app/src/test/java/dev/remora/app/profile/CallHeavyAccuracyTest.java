package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * On code whose stack changes every few microseconds (json, regex with a generator expression,
 * recursion, a loop of one-line calls, C calling back into Python, asyncio tasks, short sleeps), the
 * profile's share of each function must match the split the target measured itself — wall time with
 * perf_counter, CPU time with thread_time — and nearly every tick must become a sample: the ticks
 * lost are those that land where the stack moves, so losing them biases the profile.
 */
@Tag("targets")
class CallHeavyAccuracyTest {

    private static final double TARGET_SECONDS = 7;
    private static final String PROFILE_SECONDS = "4";
    private static final List<String> FUNCTIONS = List.of("json_round_trips", "regex_generator", "recursion",
            "tiny_calls", "c_calls_back", "asyncio_tasks", "short_sleeps");
    private static final Pattern TICKS = Pattern.compile("Captured (\\d+) samples? in .* \\((\\d+) ticks?\\)");
    private static final Pattern ERRORS = Pattern.compile("\\((\\d+) stacks? not read whole");

    /**
     * Each interpreter in wall and cpu mode, written as jsonl; those with a frame marker (3.15+) also
     * with --frame-marker, captured with --binary and read back with replay, and drawn as a heatmap
     * (whose per-function totals are read from the page). Each gives the window it sampled, and the
     * target's split is taken over exactly that window.
     */
    static Stream<Arguments> interpretersAndModes() {
        return TargetInterpreters.all().stream().flatMap(python -> {
            Stream<Arguments> plain = Stream.of(Arguments.of(python, "wall", false, "jsonl"),
                    Arguments.of(python, "cpu", false, "jsonl"));
            return python.minor() >= 15
                    ? Stream.concat(plain, Stream.of(Arguments.of(python, "wall", true, "jsonl"),
                            Arguments.of(python, "cpu", true, "jsonl"), Arguments.of(python, "wall", false, "binary"),
                            Arguments.of(python, "cpu", false, "binary"), Arguments.of(python, "wall", false, "heatmap")))
                    : plain;
        });
    }

    @ParameterizedTest(name = "{0} {1} frame marker {2} {3}")
    @MethodSource("interpretersAndModes")
    void sharesMatchWhatTheTargetMeasuredAndTicksBecomeSamples(TargetInterpreter python, String mode, boolean marker,
                                                             String output) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-callheavy-")) {
            Path profile = dir.host("profile.jsonl");
            dir.copyResource("targets/timed_calls.py");
            String script = dir.copyResource("targets/callheavy.py");
            Process target = new ProcessBuilder(python.scriptCommand(script, List.of(Double.toString(TARGET_SECONDS), mode)))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            RemoraCli run;
            JsonNode measured;
            ProfileAccuracyTest.Shares profiled;
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                // A binary capture is read back by replay, as a user would, into the same jsonl.
                Path written = switch (output) {
                    case "binary" -> dir.host("profile.bin");
                    case "heatmap" -> dir.host("profile.html");
                    default -> profile;
                };
                List<Object> args = new java.util.ArrayList<>(List.of("attach", "-d", PROFILE_SECONDS, "--mode", mode,
                        "--" + output, "-o", written));
                if (marker) {
                    args.add("--frame-marker");
                }
                args.add(target.pid());
                run = RemoraCli.run(args.toArray());
                assertThat(run.exitCode()).as(run.err()).isZero();
                if (output.equals("binary")) {
                    RemoraCli replay = RemoraCli.run("replay", "--jsonl", "-o", profile, written);
                    assertThat(replay.exitCode()).as(replay.err()).isZero();
                }
                SampledWindow window;
                if (output.equals("heatmap")) {
                    JsonNode page = heatmapData(written);
                    window = SampledWindow.ofHeatmap(page.get("meta"));
                    profiled = heatmapShares(page);
                } else {
                    window = SampledWindow.ofJsonl(profile);
                    profiled = ProfileAccuracyTest.Shares.ofJsonl(Files.readAllLines(profile));
                }
                measured = window.askTarget(target, out);
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            Matcher counts = TICKS.matcher(run.err());
            assertThat(counts.find()).as(run.err()).isTrue();
            long samples = Long.parseLong(counts.group(1));
            long ticks = Long.parseLong(counts.group(2));
            assertThat(profiled.total()).as("samples in the profile").isEqualTo(samples);
            if (mode.equals("wall")) {
                // One thread, sampled at every tick: each tick must give its stack, or count as an error.
                assertThat(samples).as("ticks delivered as samples: %s", run.err()).isGreaterThanOrEqualTo(ticks * 99 / 100);
                Matcher errors = ERRORS.matcher(run.err());
                assertThat(samples + (errors.find() ? Long.parseLong(errors.group(1)) : 0)).as("samples and errors: %s", run.err())
                        .isEqualTo(ticks);
            } else {
                assertThat(run.err()).as("errors in cpu mode").containsPattern("Error rate: 0\\.\\d\\d%");
            }
            StringBuilder profiledShares = new StringBuilder();
            for (String function : FUNCTIONS) {
                profiledShares.append(String.format(" %s=%.4f", function, profiled.share(function)));
            }
            for (String function : FUNCTIONS) {
                assertThat(profiled.share(function)).as("%s share in %s mode (measured %s, profiled%s)", function, mode, measured, profiledShares)
                        .isCloseTo(measured.get(function).asDouble(), within(0.02));
            }
        }
    }

    private static JsonNode heatmapData(Path page) throws Exception {
        String html = Files.readString(page, StandardCharsets.UTF_8);
        String open = "<script type=\"application/json\" id=\"heatmap-data\">";
        int start = html.indexOf(open) + open.length();
        return new ObjectMapper().readTree(html.substring(start, html.indexOf("</script>", start)));
    }

    /** Each function's samples as the heatmap page counts them (on the stack, once per sample), over all samples. */
    private static ProfileAccuracyTest.Shares heatmapShares(JsonNode data) {
        java.util.Map<String, Long> counts = new java.util.HashMap<>();
        for (JsonNode file : data.get("files")) {
            for (JsonNode function : file.get("functions")) {
                counts.merge(function.get(0).asText(), function.get(3).asLong(), Long::sum);
            }
        }
        return new ProfileAccuracyTest.Shares(counts, data.get("meta").get("samples").asLong());
    }
}
