package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.SampledWindow;
import dev.remora.app.testing.PprofShares;
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
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every profile format, read the way its users read it, against a target that times itself on code
 * whose stack changes every few microseconds: one capture of callheavy.py, written by replay in each
 * format, must give each of the seven functions the share of the time the target measured with
 * perf_counter. pstats is read by CPython's pstats, pprof by go tool pprof; the JSON formats and the
 * flamegraph page are walked sample by sample, a function counted once per stack it is on.
 */
@Tag("targets")
class EveryFormatAccuracyTest {

    private static final List<String> FUNCTIONS = List.of("json_round_trips", "regex_generator", "recursion",
            "tiny_calls", "c_calls_back", "asyncio_tasks", "short_sleeps");
    private static final List<String> FORMATS = List.of("collapsed", "pstats", "pprof", "speedscope", "gecko", "jsonl",
            "flamegraph");
    private static final String PSTATS_CUMULATIVE = """
            import json, pstats, sys
            stats = pstats.Stats(sys.argv[1])
            cumulative = {}
            for (_, _, name), (_, _, _, cumtime, _) in stats.stats.items():
                cumulative[name] = cumulative.get(name, 0) + cumtime
            print(json.dumps({name: t / stats.total_tt for name, t in cumulative.items()}))
            """;

    @Test
    void everyFormatGivesTheSharesTheTargetMeasured() throws Exception {
        TargetInterpreter python = TargetInterpreters.all().stream().filter(t -> t.name().equals("debian-3.15")).findFirst()
                .orElseThrow(() -> new IllegalStateException("no debian-3.15 among the targets"));
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-format-shares-")) {
            Path capture = dir.host("capture.bin");
            JsonNode measured;
            dir.copyResource("targets/timed_calls.py");
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/callheavy.py"), List.of("7", "wall")))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                RemoraCli run = RemoraCli.run("attach", "-d", "4", "--binary", "-o", capture, target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                // The capture's own window, as jsonl gives it, is the stretch the target's split is asked for.
                Path meta = dir.host("window.jsonl");
                RemoraCli replay = RemoraCli.run("replay", "--jsonl", "-o", meta, capture);
                assertThat(replay.exitCode()).as(replay.err()).isZero();
                measured = SampledWindow.ofJsonl(meta).askTarget(target, out);
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }

            List<String> wrong = new ArrayList<>();
            for (String format : FORMATS) {
                Path file = dir.host("profile." + format);
                RemoraCli replay = RemoraCli.run("replay", "--" + format, "-o", file, capture);
                assertThat(replay.exitCode()).as(format + ": " + replay.err()).isZero();
                Map<String, Double> shares = switch (format) {
                    case "collapsed" -> collapsed(file);
                    case "pstats" -> pstats(python, dir, file.getFileName().toString());
                    case "pprof" -> PprofShares.of(dir.host(), file);
                    case "speedscope" -> speedscope(file);
                    case "gecko" -> gecko(file);
                    case "jsonl" -> jsonl(file);
                    default -> flamegraph(file);
                };
                for (String function : FUNCTIONS) {
                    double share = shares.getOrDefault(function, 0.0);
                    double expected = measured.get(function).asDouble();
                    if (Math.abs(share - expected) > 0.02) {
                        wrong.add("%s: %s %.4f, measured %.4f".formatted(format, function, share, expected));
                    }
                }
            }
            assertThat(wrong).as("shares off by more than 2 points (measured %s)", measured).isEmpty();
        }
    }

    private static Map<String, Double> collapsed(Path file) throws Exception {
        return sharesOf(ProfileAccuracyTest.Shares.of(Files.readAllLines(file)));
    }

    private static Map<String, Double> sharesOf(ProfileAccuracyTest.Shares shares) {
        Map<String, Double> out = new HashMap<>();
        for (String function : FUNCTIONS) {
            out.put(function, shares.share(function));
        }
        return out;
    }

    /** Each function's cumulative time over the total, as CPython's pstats reads the file. */
    private static Map<String, Double> pstats(TargetInterpreter python, ScratchDir dir, String file) throws Exception {
        Process p = new ProcessBuilder(python.command("-c", PSTATS_CUMULATIVE, dir.inRoot(file)))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String json = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(json).isZero();
        Map<String, Double> out = new HashMap<>();
        new ObjectMapper().readTree(json).properties().forEach(e -> out.put(e.getKey(), e.getValue().asDouble()));
        return out;
    }

    /** Sampled profiles: stacks of frame indexes, root first, each with its weight. */
    private static Map<String, Double> speedscope(Path file) throws Exception {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        JsonNode frames = root.get("shared").get("frames");
        Counter counter = new Counter();
        for (JsonNode profile : root.get("profiles")) {
            JsonNode weights = profile.get("weights");
            for (int i = 0; i < profile.get("samples").size(); i++) {
                Set<String> on = new HashSet<>();
                profile.get("samples").get(i).forEach(frame -> on.add(frames.get(frame.asInt()).get("name").asText()));
                counter.add(on, weights.get(i).asLong());
            }
        }
        return counter.shares();
    }

    /** The Firefox Profiler's tables: each sample's stack is a chain of prefixes, each naming a frame, func and string. */
    private static Map<String, Double> gecko(Path file) throws Exception {
        JsonNode root = new ObjectMapper().readTree(file.toFile());
        JsonNode strings = root.get("shared").get("stringArray");
        Counter counter = new Counter();
        for (JsonNode thread : root.get("threads")) {
            JsonNode stackTable = thread.get("stackTable");
            JsonNode frameFunc = thread.get("frameTable").get("func");
            JsonNode funcName = thread.get("funcTable").get("name");
            JsonNode samples = thread.get("samples");
            JsonNode weights = samples.get("weight");
            for (int i = 0; i < samples.get("stack").size(); i++) {
                JsonNode stack = samples.get("stack").get(i);
                if (stack.isNull()) {
                    continue;
                }
                Set<String> on = new HashSet<>();
                for (int s = stack.asInt(); s >= 0; s = stackTable.get("prefix").get(s).isNull() ? -1 : stackTable.get("prefix").get(s).asInt()) {
                    int func = frameFunc.get(stackTable.get("frame").get(s).asInt()).asInt();
                    on.add(strings.get(funcName.get(func).asInt()).asText());
                }
                counter.add(on, weights == null || weights.isNull() ? 1 : weights.get(i).asLong());
            }
        }
        return counter.shares();
    }

    private static Map<String, Double> jsonl(Path file) throws Exception {
        return sharesOf(ProfileAccuracyTest.Shares.ofJsonl(Files.readAllLines(file)));
    }

    /**
     * The page's call tree: nodes [parent, name, file, line, total, ...]; a function's samples are the
     * totals of its nodes that no node of the same function encloses.
     */
    private static Map<String, Double> flamegraph(Path file) throws Exception {
        String html = Files.readString(file, StandardCharsets.UTF_8);
        String open = "<script type=\"application/json\" id=\"profile-data\">";
        int start = html.indexOf(open) + open.length();
        JsonNode data = new ObjectMapper().readTree(html.substring(start, html.indexOf("</script>", start)));
        JsonNode strings = data.get("strings");
        JsonNode nodes = data.get("nodes");
        IntFunction<String> name = n -> strings.get(nodes.get(n).get(1).asInt()).asText();
        Map<String, Long> counts = new HashMap<>();
        for (int n = 0; n < nodes.size(); n++) {
            boolean outermost = true;
            for (int up = nodes.get(n).get(0).asInt(); up >= 0; up = nodes.get(up).get(0).asInt()) {
                outermost &= !name.apply(up).equals(name.apply(n));
            }
            if (outermost) {
                counts.merge(name.apply(n), nodes.get(n).get(4).asLong(), Long::sum);
            }
        }
        double samples = data.get("meta").get("samples").asLong();
        Map<String, Double> out = new HashMap<>();
        counts.forEach((function, n) -> out.put(function, n / samples));
        return out;
    }

    /** Samples per function, a function counted once per stack it is on, over all samples. */
    private static final class Counter {
        private final Map<String, Long> counts = new HashMap<>();
        private long total;

        void add(Set<String> functions, long weight) {
            total += weight;
            functions.forEach(f -> counts.merge(f, weight, Long::sum));
        }

        Map<String, Double> shares() {
            Map<String, Double> out = new HashMap<>();
            counts.forEach((function, n) -> out.put(function, n / (double) total));
            return out;
        }
    }
}
