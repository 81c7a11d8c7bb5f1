package dev.remora.app.agent;

import com.fasterxml.jackson.databind.JsonNode;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import dev.remora.app.profile.RemoraProcess;
import dev.remora.app.testing.OtlpReceiver;
import dev.remora.app.testing.PprofShares;
import dev.remora.app.testing.PyroscopeReceiver;
import dev.remora.app.testing.PyroscopeReceiver.Answer;
import dev.remora.app.testing.SampledWindow;
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
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code remora agent} end to end, against real interpreters: what its sinks receive, read back as
 * users read it (go tool pprof on the directory's files and on the bodies a stand-in Pyroscope took,
 * the OTLP bodies decoded with OpenTelemetry's published definitions),
 * gives each process the split it measured itself over each window; processes are picked up and
 * let go as they come and go; a back end that fails gets every window once it is back; SIGUSR1 gives
 * the health line; SIGTERM delivers the window under way and exits 0.
 */
@Tag("targets")
class AgentTest {

    private static final List<String> FUNCTIONS = List.of("json_round_trips", "regex_generator", "recursion",
            "tiny_calls", "c_calls_back", "asyncio_tasks", "short_sleeps");
    private static final Pattern FILE = Pattern.compile("(.+)\\.(\\d+)\\.(\\d{8}T\\d{6}\\.\\d{3}Z)\\.pb\\.gz");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC);

    /** A file of the directory sink: its process and its window's start. */
    private record WindowFile(Path path, String service, int pid, long fromMillis) {
        static WindowFile of(Path path) {
            Matcher name = FILE.matcher(path.getFileName().toString());
            assertThat(name.matches()).as(path.toString()).isTrue();
            return new WindowFile(path, name.group(1), Integer.parseInt(name.group(2)),
                    Instant.from(TIME.parse(name.group(3))).toEpochMilli());
        }
    }

    private static List<WindowFile> windows(Path directory, long pid) throws Exception {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".pb.gz")).map(WindowFile::of)
                    .filter(w -> w.pid() == pid).sorted(java.util.Comparator.comparingLong(WindowFile::fromMillis)).toList();
        }
    }

    private static TargetInterpreter target(String name) {
        return TargetInterpreters.all().stream().filter(t -> t.name().equals(name)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + name + " among the targets"));
    }

    @Test
    void eachProcessGetsTheSplitItMeasuredInTheDirectoryAndInPyroscope() throws Exception {
        List<TargetInterpreter> pythons = List.of(target("debian-3.15"), target("pyenv-3.12.1-shared"));
        List<ScratchDir> dirs = new ArrayList<>();
        List<Process> targets = new ArrayList<>();
        List<BufferedReader> outputs = new ArrayList<>();
        try (PyroscopeReceiver receiver = PyroscopeReceiver.start(); OtlpReceiver collector = OtlpReceiver.start()) {
            for (TargetInterpreter python : pythons) {
                ScratchDir dir = ScratchDir.create(python, "remora-it-agent-");
                dirs.add(dir);
                dir.copyResource("targets/timed_calls.py");
                Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/callheavy.py"),
                        List.of("16", "wall"))).redirectError(ProcessBuilder.Redirect.DISCARD).start();
                targets.add(target);
                BufferedReader out = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8));
                assertThat(out.readLine()).isEqualTo("READY");
                outputs.add(out);
            }
            Path sink = dirs.getFirst().host("profiles");
            try (RemoraProcess agent = RemoraProcess.start(dirs.getFirst().host(), "agent", "--pid",
                    Long.toString(targets.get(0).pid()), "--pid", Long.toString(targets.get(1).pid()), "-r", "1khz",
                    "--upload-interval", "4", "--scan-interval", "0.2", "--directory", sink.toString(),
                    "--pyroscope", receiver.url().toString(), "--otlp", collector.url().toString(), "--tag", "env=test",
                    "-d", "12.5")) {
                assertThat(agent.waitFor()).as(agent.err()).isZero();
            }
            List<String> wrong = new ArrayList<>();
            for (int i = 0; i < targets.size(); i++) {
                Process target = targets.get(i);
                List<WindowFile> files = windows(sink, target.pid());
                assertThat(files).as("windows of %d", target.pid()).hasSizeGreaterThanOrEqualTo(3);
                // The second window is whole: it starts where the first ended and ends where the third starts.
                WindowFile whole = files.get(1);
                assertThat(whole.service()).isEqualTo("callheavy");
                JsonNode measured = new SampledWindow(whole.fromMillis() / 1e3, files.get(2).fromMillis() / 1e3)
                        .askTarget(target, outputs.get(i));
                PyroscopeReceiver.Ingested posted = receiver.ingested().stream()
                        .filter(r -> r.labels().get("pid").equals(Long.toString(target.pid()))
                                && Long.parseLong(r.query().get("from")) == whole.fromMillis() / 1000)
                        .findFirst().orElseThrow(() -> new AssertionError("Pyroscope got no window of " + target.pid()
                                + " from " + whole.fromMillis() + ": " + receiver.ingested().stream().map(r -> r.query()).toList()));
                assertThat(posted.app()).isEqualTo("callheavy");
                assertThat(posted.labels()).containsEntry("env", "test").containsKeys("hostname", "python_version");
                Path body = dirs.get(i).host("posted.pb.gz");
                Files.write(body, posted.pprof());
                Map<String, Double> fromDirectory = PprofShares.of(dirs.get(i).host(), whole.path());
                Map<String, Double> fromPyroscope = PprofShares.of(dirs.get(i).host(), body);
                ExportProfilesServiceRequest exported = collector.received().stream()
                        .filter(r -> OtlpReceiver.resource(r).get("process.pid").equals(Long.toString(target.pid()))
                                && OtlpReceiver.profiles(r).getFirst().getTimeUnixNano() == whole.fromMillis() * 1_000_000)
                        .findFirst().orElseThrow(() -> new AssertionError("the collector got no window of " + target.pid()));
                assertThat(OtlpReceiver.resource(exported)).containsEntry("service.name", "callheavy")
                        .containsEntry("env", "test");
                Map<String, Double> fromOtlp = OtlpReceiver.shares(exported);
                for (String function : FUNCTIONS) {
                    double expected = measured.get(function).asDouble();
                    for (Map.Entry<String, Map<String, Double>> read : Map.of("directory", fromDirectory, "pyroscope",
                            fromPyroscope, "otlp", fromOtlp).entrySet()) {
                        double share = read.getValue().getOrDefault(function, 0.0);
                        if (Math.abs(share - expected) > 0.02) {
                            wrong.add("%s %s: %s %.4f, measured %.4f".formatted(pythons.get(i).name(), read.getKey(), function,
                                    share, expected));
                        }
                    }
                }
            }
            assertThat(receiver.refused()).isEmpty();
            assertThat(collector.refused()).isEmpty();
            assertThat(wrong).as("shares off by more than 2 points").isEmpty();
        } finally {
            for (Process target : targets) {
                target.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
            dirs.forEach(ScratchDir::close);
        }
    }

    @Test
    void processesComeAndGoABackEndThatFailsGetsEveryWindowAndSigtermDeliversTheLast() throws Exception {
        TargetInterpreter python = target("pyenv-3.12.1-shared");
        String marker = "remora-agent-test-" + ProcessHandle.current().pid();
        String busy = """
                import sys, time
                def spin(seconds):
                    end = time.perf_counter() + seconds
                    while time.perf_counter() < end:
                        sum(range(100))
                spin(float(sys.argv[1]))
                """;
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-agent-churn-");
             PyroscopeReceiver receiver = PyroscopeReceiver.start()) {
            // Down for its first answers: errors, a hang-up, errors again; then back.
            receiver.script(new Answer.Status(503), new Answer.Status(502), new Answer.Hangup(), new Answer.Status(503));
            ProcessBuilder steadyStart = new ProcessBuilder(python.command("-c", busy, "60", marker));
            steadyStart.environment().put("REMORA_TEST_DEPLOY", "blue");
            Process steady = steadyStart.start();
            Path sink = dir.host("profiles");
            Process late = null;
            Path status = dir.host("agent.status");
            try (RemoraProcess agent = RemoraProcess.start(dir.host(), "agent", "--match", marker, "--upload-interval", "1",
                    "--scan-interval", "0.2", "--directory", sink.toString(), "--pyroscope", receiver.url().toString(),
                    "--status-file", status.toString(), "--env-label", "REMORA_TEST_DEPLOY=deploy")) {
                agent.awaitErr("sampling process " + steady.pid());
                // SIGUSR1: the health line at once, in the log and the status file.
                new ProcessBuilder("kill", "-USR1", Long.toString(agent.pid())).start().waitFor();
                agent.awaitErr("1 processes, 0 exited;");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!Files.exists(status) && System.nanoTime() < deadline) {
                    TimeUnit.MILLISECONDS.sleep(20); // written just after the log line
                }
                assertThat(Files.readString(status)).contains("1 processes, 0 exited;").contains("pyroscope");
                late = new ProcessBuilder(python.command("-c", busy, "1.5", marker)).start();
                agent.awaitErr("sampling process " + late.pid());
                assertThat(late.waitFor(30, TimeUnit.SECONDS)).isTrue();
                TimeUnit.MILLISECONDS.sleep(3500); // past the back end's failures and their pauses
                agent.terminate();
                assertThat(agent.waitFor()).as(agent.err()).isZero();
                assertThat(agent.err()).contains("stopped:").contains("windows are queued and tried again")
                        .contains("delivering again");
            } finally {
                steady.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                if (late != null) {
                    late.destroyForcibly();
                }
            }
            List<WindowFile> lateWindows = windows(sink, late.pid());
            assertThat(lateWindows).as("the late process's windows").isNotEmpty();
            assertThat(PprofShares.of(dir.host(), lateWindows.getLast().path())).containsKey("spin");
            List<WindowFile> steadyWindows = windows(sink, steady.pid());
            assertThat(steadyWindows).hasSizeGreaterThanOrEqualTo(4);
            // Every window the directory got, Pyroscope got too, each once, in order.
            for (long pid : List.of(steady.pid(), late.pid())) {
                List<Long> posted = receiver.ingested().stream().filter(r -> r.labels().get("pid").equals(Long.toString(pid)))
                        .map(r -> Long.parseLong(r.query().get("from"))).toList();
                List<Long> written = windows(sink, pid).stream().map(w -> w.fromMillis() / 1000).toList();
                assertThat(posted).as("windows of %d posted", pid).isEqualTo(written);
            }
            // The label from the steady process's own environment; the late one was started without it.
            for (var request : receiver.ingested()) {
                boolean fromSteady = request.labels().get("pid").equals(Long.toString(steady.pid()));
                assertThat(request.labels().get("deploy")).as("deploy label of %s", request.labels())
                        .isEqualTo(fromSteady ? "blue" : null);
            }
            assertThat(receiver.refused()).isEmpty();
        }
    }
}
