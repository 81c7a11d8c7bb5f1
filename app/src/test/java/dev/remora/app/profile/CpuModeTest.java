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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Open: cpu mode counts a thread the OS calls runnable, which it is while it waits for a core too,
 * so here it keeps every tick; run it by name with -Dremora.test.excludedGroups=none.
 *
 * <p>cpu mode counts a thread while it runs on a CPU, not while it waits for one: with two busy loops
 * beside it on a machine of two cores, a thread that never sleeps is runnable all along and on a
 * CPU only part of the time, and the ticks cpu mode keeps must be that part, as the thread measured
 * it over the sampled window (thread_time over perf_counter).
 */
@Tag("targets")
@Tag("open")
class CpuModeTest {

    private static final Pattern TICKS = Pattern.compile("Captured (\\d+) samples? in .* \\((\\d+) ticks?\\)");
    /** More busy loops than cores, with the target: it waits for a core about a third of the time. */
    private static final int BUSY_LOOPS = Math.max(2, Runtime.getRuntime().availableProcessors());

    private static final String PROFILE_SECONDS = "4";

    /**
     * The target's share of time on a CPU over the sampled window: the 4 s that ended as Remora exited,
     * a little before the target was told to stop (the profile is written meanwhile).
     */
    private static double onCpuBeforeTheEnd(JsonNode notes) {
        double end = notes.get(notes.size() - 1).get(0).asDouble() - 0.2;
        JsonNode first = null, last = null;
        for (JsonNode note : notes) {
            double wall = note.get(0).asDouble();
            if (first == null && wall >= end - Double.parseDouble(PROFILE_SECONDS)) {
                first = note;
            }
            if (wall <= end) {
                last = note;
            }
        }
        assertThat(first).isNotNull();
        return (last.get(1).asDouble() - first.get(1).asDouble()) / (last.get(0).asDouble() - first.get(0).asDouble());
    }

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void aThreadWaitingForACoreIsNotOnACpu(TargetInterpreter python) throws Exception {
        List<Process> busy = new ArrayList<>();
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-cpu-")) {
            for (int i = 0; i < BUSY_LOOPS; i++) {
                busy.add(new ProcessBuilder("/bin/sh", "-c", "while :; do :; done").start());
            }
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/cpu_waiting.py"), List.of()))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                RemoraCli run = RemoraCli.run("attach", "-d", PROFILE_SECONDS, "--mode", "cpu", "--collapsed", "-o",
                        dir.host("profile.txt"), target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                target.getOutputStream().write('\n');
                target.getOutputStream().flush();
                double onCpu = onCpuBeforeTheEnd(new ObjectMapper().readTree(out.readLine()));
                Matcher counts = TICKS.matcher(run.err());
                assertThat(counts.find()).as(run.err()).isTrue();
                double kept = Long.parseLong(counts.group(1)) / (double) Long.parseLong(counts.group(2));
                assertThat(onCpu).as("the target waited for a core part of the time").isLessThan(0.9);
                assertThat(kept).as("ticks kept in cpu mode, against the share of time the thread was on a CPU (%.3f)\n%s",
                        onCpu, run.err()).isCloseTo(onCpu, within(0.02));
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } finally {
            for (Process loop : busy) {
                loop.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
