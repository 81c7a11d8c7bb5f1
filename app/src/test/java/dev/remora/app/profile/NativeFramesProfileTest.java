package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.DetachedTarget;
import dev.remora.app.testing.SampledWindow;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * {@code attach --native-frames --blocking}: the share of samples a C function is on top of is the
 * share of the time the target measured in it, over exactly the window sampled; without --blocking
 * the option is refused in one line.
 */
@Tag("targets")
class NativeFramesProfileTest {

    private static final String TARGET_SECONDS = "120";
    private static final String PROFILE_SECONDS = "15";
    private static final double POINTS = 0.02;

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void aCFunctionsShareIsTheTimeTheTargetMeasuredInIt(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-native-split-")) {
            Path window = dir.host("window.txt");
            dir.copyResource("targets/timed_calls.py");
            try (DetachedTarget target = DetachedTarget.start(python, dir, "native_split.py",
                    List.of(TARGET_SECONDS, dir.inRoot("window.txt")), "READY")) {
                Path profile = dir.host("profile.jsonl");
                RemoraCli run = RemoraCli.run("attach", "--native-frames", "--blocking", "-r", "1000", "-d", PROFILE_SECONDS,
                        "--jsonl", "-o", profile, target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                SampledWindow sampled = SampledWindow.ofJsonl(profile);
                // Whole when it appears: the target stops its loop as soon as the file is there.
                Path partial = dir.host("window.partial");
                Files.writeString(partial, String.format(Locale.ROOT, "%.6f %.6f", sampled.startUnixSeconds(), sampled.endUnixSeconds()));
                Files.move(partial, window, StandardCopyOption.ATOMIC_MOVE);
                JsonNode measured = new ObjectMapper().readTree(target.output().readLine());
                double inC = measured.get("c_side").asDouble();
                Map<String, Double> shares = innermostLibraryShares(Files.readAllLines(profile));
                assertThat(inC).as("the target's own split: %s", measured).isBetween(0.2, 0.8);
                assertThat(shares.getOrDefault("libc", 0.0)).as("samples on top in libc, against %.3f measured; all: %s", inC, shares)
                        .isCloseTo(inC, within(POINTS));
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void withoutBlockingTheOptionIsRefusedInOneLine(TargetInterpreter python) {
        RemoraCli run = RemoraCli.run("attach", "--native-frames", "-d", "1", "1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err()).hasLineCount(1).contains("--native-frames needs --blocking");
    }

    /** For each library (its name up to ".so", without a release), the share of samples whose innermost frame is a C frame in it. */
    private static Map<String, Double> innermostLibraryShares(List<String> records) throws Exception {
        ObjectMapper json = new ObjectMapper();
        Map<Integer, String> libraryOf = new HashMap<>();
        Map<String, Long> counts = new HashMap<>();
        long total = 0;
        for (String line : records) {
            JsonNode record = json.readTree(line);
            switch (record.get("type").asText()) {
                case "frames" -> record.get("frames").forEach(f -> {
                    String file = f.get("file").asText();
                    String base = file.substring(file.lastIndexOf('/') + 1);
                    // glibc before 2.34 names its files by release too: libc-2.31.so is libc.
                    libraryOf.put(f.get("frame_id").asInt(), base.contains(".so")
                            ? base.substring(0, base.indexOf(".so")).replaceFirst("-\\d+(\\.\\d+)*$", "") : "python");
                });
                case "window" -> {
                    for (JsonNode thread : record.get("threads")) {
                        for (JsonNode stack : thread.get("stacks")) {
                            long n = stack.get("count").asLong();
                            total += n;
                            JsonNode frames = stack.get("frames");
                            String top = frames.isEmpty() ? "none" : libraryOf.get(frames.get(frames.size() - 1).asInt());
                            counts.merge(top, n, Long::sum);
                        }
                    }
                }
                default -> { }
            }
        }
        Map<String, Double> shares = new HashMap<>();
        for (var entry : counts.entrySet()) {
            shares.put(entry.getKey(), entry.getValue() / (double) total);
        }
        return shares;
    }
}
