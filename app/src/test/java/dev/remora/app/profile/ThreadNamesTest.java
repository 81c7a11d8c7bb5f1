package dev.remora.app.profile;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ExpectedProcess;
import dev.remora.app.testing.ExpectedThread;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ParkedThreads;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.GZIPInputStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Profiles name each thread as the target's {@code threading} module does (what it recorded of
 * itself), not by the OS's name for it, in every format that names threads.
 */
@Tag("targets")
class ThreadNamesTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void everyFormatNamesThreadsAsThreadingDoes(TargetInterpreter python) throws Exception {
        try (ParkedTarget target = ParkedThreads.start(python);
             ScratchDir dir = ScratchDir.create(python, "remora-it-names-")) {
            ExpectedProcess expected = target.expected();
            List<String> speedscope = new ArrayList<>();
            List<String> gecko = new ArrayList<>();
            for (ExpectedThread thread : expected.threads()) {
                speedscope.add("Thread %d [%s]".formatted(thread.threadId(), thread.name()));
                gecko.add("Thread-%d [%s]".formatted(thread.threadId(), thread.name()));
            }

            JsonNode speedscopeFile = JSON.readTree(profile(dir, target, "speedscope").toFile());
            List<String> speedscopeNames = new ArrayList<>();
            speedscopeFile.get("profiles").forEach(p -> speedscopeNames.add(p.get("name").asText()));
            assertThat(speedscopeNames).as("speedscope's profiles").containsExactlyInAnyOrderElementsOf(speedscope);

            JsonNode geckoFile = JSON.readTree(profile(dir, target, "gecko").toFile());
            List<String> geckoNames = new ArrayList<>();
            geckoFile.get("threads").forEach(t -> geckoNames.add(t.get("name").asText()));
            assertThat(geckoNames).as("gecko's threads").containsExactlyInAnyOrderElementsOf(gecko);

            String flamegraph = Files.readString(profile(dir, target, "flamegraph"), StandardCharsets.UTF_8);
            String pprof = gunzip(profile(dir, target, "pprof"));
            for (ExpectedThread thread : expected.threads()) {
                String quoted = JSON.writeValueAsString(thread.name());
                assertThat(flamegraph).as("the flamegraph's thread menu").contains("\"name\":" + quoted);
                assertThat(pprof).as("pprof's thread_name labels").contains(thread.name());
            }
        }
    }

    private static Path profile(ScratchDir dir, ParkedTarget target, String format) {
        Path file = dir.host("names-" + format);
        RemoraCli run = RemoraCli.run("attach", "-d", "0.3", "-a", "--" + format, "-o", file, target.pid());
        assertThat(run.exitCode()).as(format + ": " + run.err()).isZero();
        return file;
    }

    private static String gunzip(Path file) throws Exception {
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(Files.readAllBytes(file)))) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
