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
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * cpu mode counts a thread while it runs on a CPU, not while it waits for one: with two busy loops
 * beside it on a machine of two cores, a thread that never sleeps is runnable all along and on a
 * CPU only part of the time, and the ticks cpu mode keeps must be that part, as the thread measured
 * it (thread_time over the wall clock) over exactly the window sampled, which the JSON lines give.
 */
@Tag("targets")
class CpuModeTest {

    /** More busy loops than cores, with the target: it waits for a core about a third of the time. */
    private static final int BUSY_LOOPS = Math.max(2, Runtime.getRuntime().availableProcessors());

    private static final String PROFILE_SECONDS = "4";

    /** The target's share of time on a CPU between two wall-clock times, in epoch seconds, from its notes. */
    private static double onCpuBetween(JsonNode notes, double from, double to) {
        JsonNode first = null, last = null;
        for (JsonNode note : notes) {
            double wall = note.get(0).asDouble();
            if (first == null && wall >= from) {
                first = note;
            }
            if (wall <= to) {
                last = note;
            }
        }
        assertThat(first).as("notes from %.3f on", from).isNotNull();
        return (last.get(1).asDouble() - first.get(1).asDouble()) / (last.get(0).asDouble() - first.get(0).asDouble());
    }

    /**
     * Threads share the CPU unequally: each one's share of the samples is its share of the CPU time
     * the threads used, by their own thread_time. A thread that waits for the GIL, or sleeps between
     * short bursts, is runnable part of the time without running; the OS's run state gave such threads
     * 5-7% of the samples for 0.6-1.4% of the CPU.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void eachThreadGetsItsShareOfTheCpuTime(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-cpu-threads-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/cpu_threads.py"), List.of()))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                RemoraCli run = RemoraCli.run("attach", "-a", "-d", PROFILE_SECONDS, "--mode", "cpu", "--collapsed", "-o",
                        dir.host("threads.txt"), target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                target.getOutputStream().write('\n');
                target.getOutputStream().flush();
                JsonNode spent = new ObjectMapper().readTree(out.readLine());
                Map<String, Long> samples = new HashMap<>();
                for (String line : Files.readAllLines(dir.host("threads.txt"))) {
                    String thread = line.substring(0, line.indexOf(';')).replace("tid:", "");
                    samples.merge(thread, Long.parseLong(line.substring(line.lastIndexOf(' ') + 1)), Long::sum);
                }
                double cpuTotal = 0;
                long sampleTotal = 0;
                for (var thread : spent.properties()) {
                    cpuTotal += thread.getValue().asDouble();
                    sampleTotal += samples.getOrDefault(thread.getKey(), 0L);
                }
                assertThat(sampleTotal).as(run.err()).isGreaterThan(1000);
                for (var thread : spent.properties()) {
                    double cpuShare = thread.getValue().asDouble() / cpuTotal;
                    double sampleShare = samples.getOrDefault(thread.getKey(), 0L) / (double) sampleTotal;
                    assertThat(sampleShare).as("thread %s's share of the samples, against its share of the CPU time (%s, samples %s)",
                            thread.getKey(), spent, samples).isCloseTo(cpuShare, within(0.02));
                }
            } finally {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
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
                RemoraCli run = RemoraCli.run("attach", "-d", PROFILE_SECONDS, "--mode", "cpu", "--jsonl", "-o",
                        dir.host("profile.jsonl"), target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                target.getOutputStream().write('\n');
                target.getOutputStream().flush();
                JsonNode notes = new ObjectMapper().readTree(out.readLine());
                List<String> records = Files.readAllLines(dir.host("profile.jsonl"));
                JsonNode meta = new ObjectMapper().readTree(records.getFirst());
                JsonNode end = new ObjectMapper().readTree(records.getLast());
                assertThat(end.get("type").asText()).isEqualTo("end");
                double from = meta.get("start_unix_ms").asDouble() / 1000;
                double onCpu = onCpuBetween(notes, from, from + end.get("elapsed_us").asDouble() / 1e6);
                // The busy machine holds the sampler up past its catch-up window now and then: those ticks are
                // missed, and the CPU time the thread used meanwhile is paid to its later stacks, up to a bound.
                // Missed ticks can so make samples per tick taken overstate its share, and samples per tick of
                // the run (taken or missed) understate it: each bound is judged by the count they cannot flatter.
                // With no tick missed, the two are the same.
                double taken = end.get("ticks").asDouble();
                double ofTheRun = taken + end.get("missed").asDouble();
                double kept = end.get("samples_total").asDouble() / ofTheRun;
                double keptOfTaken = end.get("samples_total").asDouble() / taken;
                double errors = end.get("errors").asDouble() / taken;
                assertThat(onCpu).as("the target waited for a core part of the time").isLessThan(0.9);
                // Past this, the two counts lie too far apart for the bounds to judge anything.
                assertThat(1 - taken / ofTheRun).as("share of the run's ticks missed\n%s", run.err()).isLessThan(0.25);
                assertThat(kept).as("ticks of the run kept in cpu mode, against the share of time the thread was on a CPU"
                        + " (%.3f)\n%s", onCpu, run.err()).isLessThanOrEqualTo(onCpu + 0.02);
                // A tick whose stack moved while it was read is an error, not a sample: the share kept may
                // fall short of the truth by the share of errors Remora reports, and by no more.
                assertThat(keptOfTaken + errors).as("ticks kept or said to be errors, against the share on a CPU (%.3f)\n%s",
                        onCpu, run.err()).isGreaterThanOrEqualTo(onCpu - 0.02);
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
