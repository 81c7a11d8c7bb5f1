package dev.remora.app.profile;

import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.DetachedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Open: on 3.11 to 3.13 all idioms together still come 2 to 3 points off --blocking in some runs
 * (3.11 above, 3.12 and 3.13 below), one idiom by up to 10 (3.13's generator, 3.12's sorted key).
 * Within the recursion the default walk lands too shallow on 3.12 to 3.15: its deepest calls, which
 * live shortest, get too few ticks (mean depth 4.2-4.6 against 5.9-6.0 on 3.15 and 3.14, 4.6-5.2
 * against 5.8 on 3.12). 3.10, whose copy now holds the frame objects of recent walks, comes within
 * half a call in most runs (one unpinned run in four: 3.3 against 5.7). Run it by name with
 * -Dremora.test.excludedGroups=none.
 *
 * <p>Functions that last about a microsecond, called from a generator expression, a generator, map,
 * sorted's key, a list comprehension, a coroutine and a recursion (targets/short_frames.py): the
 * default walk, which reads the stack while the target runs on, must give each the share that
 * {@code --blocking} gives on the same process, whose reads stop the target and so are exact.
 */
@Tag("targets")
@Tag("open")
class ShortFramesAccuracyTest {

    /** Outlives both profiles; the target is killed when the test ends. */
    private static final String TARGET_SECONDS = "60";
    private static final String PROFILE_SECONDS = "6";
    /** All tiny functions' part of their idioms' samples together: about 5000, so 2 points is 3 sigma. */
    private static final double TOTAL_TOLERANCE = 0.02;
    /**
     * Each tiny function's part of its own idiom's samples (about 850 of them): run to run that moves by
     * up to 4 points under --blocking alone; the bias this catches was 15 to 40.
     */
    private static final double IDIOM_TOLERANCE = 0.06;
    /** Each tiny function and the function whose slice calls it through its idiom. */
    private static final java.util.Map<String, String> TINY = new java.util.LinkedHashMap<>();

    static {
        TINY.put("tiny_genexpr", "via_genexpr");
        TINY.put("tiny_gen", "via_generator");
        TINY.put("tiny_map", "via_map");
        TINY.put("tiny_key", "via_sorted");
        TINY.put("tiny_comp", "via_comprehension");
        // Not the coroutine: there --blocking gives 0.38-0.55 where the default walk gives 0.6-0.8 on every
        // version and CPython 3.15's own profiler agrees with the default walk; stopping a thread in the
        // event loop's select() is no exact reference until that is understood.
        TINY.put("tiny_rec", "via_recursion");
    }
    /** The recursion of tiny functions (11 calls deep) and the slice that makes it. */
    private static final String RECURSIVE = "tiny_rec";
    private static final String RECURSION_SLICE = "via_recursion";
    /**
     * How far the recursion's mean depth may be from --blocking's: over about 800 samples of depths
     * spread from 1 to 11 its standard error is about 0.11; the bias this catches was 0.8 to 3.2 calls.
     */
    private static final double DEPTH_TOLERANCE = 0.5;
    private static final Pattern COUNTS = Pattern.compile("Captured (\\d+) samples? in .* \\((\\d+) ticks?\\)");

    /** Each interpreter in wall and cpu mode; those with a frame marker (3.15+) also with --frame-marker. */
    static Stream<Arguments> interpretersAndModes() {
        return TargetInterpreters.all().stream().flatMap(python -> {
            Stream<Arguments> plain = Stream.of(Arguments.of(python, "wall", false), Arguments.of(python, "cpu", false));
            return python.minor() >= 15
                    ? Stream.concat(plain, Stream.of(Arguments.of(python, "wall", true), Arguments.of(python, "cpu", true)))
                    : plain;
        });
    }

    @ParameterizedTest(name = "{0} {1} frame marker {2}")
    @MethodSource("interpretersAndModes")
    void tinyFunctionsKeepTheirShareAgainstStoppedReads(TargetInterpreter python, String mode, boolean marker)
            throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-shortframes-");
             DetachedTarget target = start(python, dir)) {
            Run walked = profile(target, mode, marker ? List.of("--frame-marker") : List.of(), dir.host("default.txt"));
            // The target is one thread that never waits: on a CPU whenever it runs, so wall mode's exact
            // stacks are cpu mode's too (a thread stopped by ptrace is not on a CPU).
            Run stopped = profile(target, "wall", List.of("--blocking"), dir.host("blocking.txt"));

            String shares = describe(walked.shares(), stopped.shares()) + String.format(Locale.ROOT, " %s depth=%.2f/%.2f",
                    RECURSIVE, meanDepth(walked.lines(), RECURSIVE, RECURSION_SLICE), meanDepth(stopped.lines(), RECURSIVE, RECURSION_SLICE));
            String context = "%s%n--- default walk:%n%s--- blocking:%n%s".formatted(shares, walked.err(), stopped.err());
            assertThat(walked.shares().total()).as("samples in the default profile: %s", context).isGreaterThan(1000);
            assertThat(stopped.shares().total()).as("samples in the blocking profile: %s", context).isGreaterThan(1000);
            assertThat(tinyTotal(walked.shares())).as("all tiny functions in %s mode, default walk against --blocking:%s",
                    mode, context).isCloseTo(tinyTotal(stopped.shares()), within(TOTAL_TOLERANCE));
            // Within its idiom's slice: the slices' own shares move with how the target is stopped and
            // scheduled, the tiny function's part of its slice only with how its stacks are read.
            for (var tiny : TINY.entrySet()) {
                assertThat(walked.shares().within(tiny.getKey(), tiny.getValue()))
                        .as("%s within %s in %s mode, default walk against --blocking:%s", tiny.getKey(), tiny.getValue(),
                                mode, context)
                        .isCloseTo(stopped.shares().within(tiny.getKey(), tiny.getValue()), within(IDIOM_TOLERANCE));
            }
            // Where in the recursion the ticks land: its deepest calls live shortest, and a walk biased
            // toward frames that stay put gives them too few ticks, which the shares above cannot see.
            assertThat(meanDepth(walked.lines(), RECURSIVE, RECURSION_SLICE))
                    .as("mean depth of %s's stacks in %s mode, default walk against --blocking:%s", RECURSIVE, mode, context)
                    .isCloseTo(meanDepth(stopped.lines(), RECURSIVE, RECURSION_SLICE), within(DEPTH_TOLERANCE));
            // The stacks not read whole are ticks lost where the stack moves: few, or they bias the profile.
            assertThat(walked.err()).as("errors of the default walk: %s", context).containsPattern("Error rate: 0\\.\\d\\d%");
            if (mode.equals("wall")) {
                // One thread, sampled at every tick: each tick must give its stack.
                assertThat(walked.samples()).as("ticks delivered as samples by the default walk: %s", context)
                        .isGreaterThanOrEqualTo(walked.ticks() * 99 / 100);
            }
        }
    }

    private static DetachedTarget start(TargetInterpreter python, ScratchDir dir) throws Exception {
        return DetachedTarget.start(python, dir, "short_frames.py", List.of(TARGET_SECONDS), "READY");
    }

    /** One attach to the target for PROFILE_SECONDS in this mode, with these options, written as collapsed stacks. */
    private static Run profile(DetachedTarget target, String mode, List<String> options, Path output)
            throws Exception {
        List<Object> args = new ArrayList<>(List.of("attach", "-d", PROFILE_SECONDS, "--mode", mode, "--collapsed",
                "-o", output));
        args.addAll(options);
        args.add(target.pid());
        RemoraCli run = RemoraCli.run(args.toArray());
        assertThat(run.exitCode()).as("%s: %s", options, run.err()).isZero();
        List<String> lines = Files.readAllLines(output);
        ProfileAccuracyTest.Shares shares = ProfileAccuracyTest.Shares.of(lines);
        Matcher counts = COUNTS.matcher(run.err());
        assertThat(counts.find()).as(run.err()).isTrue();
        Run result = new Run(shares, lines, Long.parseLong(counts.group(1)), Long.parseLong(counts.group(2)), run.err());
        assertThat(shares.total()).as("samples in the profile, %s: %s", options, run.err()).isEqualTo(result.samples());
        return result;
    }

    /** Each tiny function's part of its idiom's samples in both profiles, and each profile's samples. */
    private static String describe(ProfileAccuracyTest.Shares walked, ProfileAccuracyTest.Shares stopped) {
        StringBuilder text = new StringBuilder();
        for (var tiny : TINY.entrySet()) {
            text.append(String.format(Locale.ROOT, " %s=%.4f/%.4f", tiny.getKey(), walked.within(tiny.getKey(), tiny.getValue()),
                    stopped.within(tiny.getKey(), tiny.getValue())));
        }
        return text.append(String.format(Locale.ROOT, " all=%.4f/%.4f (default/blocking, of %d/%d samples)", tinyTotal(walked),
                tinyTotal(stopped), walked.total(), stopped.total())).toString();
    }

    /** The samples in any tiny function (no stack holds two of them), over those in their idioms' slices. */
    private static double tinyTotal(ProfileAccuracyTest.Shares shares) {
        long tiny = TINY.keySet().stream().mapToLong(f -> shares.counts().getOrDefault(f, 0L)).sum();
        long slices = TINY.values().stream().mapToLong(f -> shares.counts().getOrDefault(f, 0L)).sum();
        return slices == 0 ? 0 : tiny / (double) slices;
    }

    /**
     * Over the collapsed stacks that pass through {@code slice}, how many frames of {@code function} each
     * holds below it, on average per sample.
     */
    static double meanDepth(List<String> collapsed, String function, String slice) {
        long samples = 0;
        long frames = 0;
        for (String line : collapsed) {
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            String[] stack = line.substring(0, space).split(";");
            long count = Long.parseLong(line.substring(space + 1));
            int at = 0;
            while (at < stack.length && !stack[at].contains(":" + slice + ":")) {
                at++;
            }
            if (at == stack.length) {
                continue;
            }
            long depth = Arrays.stream(stack, at + 1, stack.length).filter(f -> f.contains(":" + function + ":")).count();
            samples += count;
            frames += depth * count;
        }
        return samples == 0 ? 0 : frames / (double) samples;
    }

    private record Run(ProfileAccuracyTest.Shares shares, List<String> lines, long samples, long ticks, String err) {}
}
