package dev.remora.app.dump;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.testing.DetachedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A library whose debug sections the toolchain stored compressed ({@code objcopy
 * --compress-debug-sections}, as distributions and newer compilers do): its C frames still carry
 * their source file and line, with zstd as with zlib and as uncompressed.
 */
@Tag("targets")
class CompressedDebugSectionsDumpTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"none", "zlib", "zstd"})
    void cFramesKeepTheirSourceLinesWhateverCompressesTheDebugSections(String compression) throws Exception {
        TargetInterpreter python = TargetInterpreters.all().getFirst();
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-zdebug-")) {
            dir.copyResource("targets/cxx_parked.c");
            run("gcc", "-shared", "-fPIC", "-O0", "-g", "-o", dir.host("libcxx_parked.so").toString(),
                    dir.host("cxx_parked.c").toString());
            run("objcopy", "--compress-debug-sections=" + compression, dir.host("libcxx_parked.so").toString());
            // readelf's section details mark each section stored compressed: the library is as the case says.
            boolean compressed = output("readelf", "-t", "-W", dir.host("libcxx_parked.so").toString()).contains("COMPRESSED");
            assertThat(compressed).as("debug sections stored compressed").isEqualTo(!compression.equals("none"));
            try (DetachedTarget target = DetachedTarget.start(python, dir, "cxx_parked.py",
                    List.of(dir.inRoot("libcxx_parked.so")), "READY")) {
                JsonNode frame = entryFrame(target.pid()).orElseThrow(() -> new AssertionError("no park_in_cxx frame"));

                assertThat(frame.path("file").asText()).as("file of %s", frame).endsWith("cxx_parked.c");
                assertThat(frame.path("line").asInt()).as("line of %s", frame).isPositive();
            }
        }
    }

    /** The main thread's park_in_cxx frame, once the thread has reached it. */
    private static Optional<JsonNode> entryFrame(long pid) throws InterruptedException {
        for (int attempt = 0; attempt < 20; attempt++) {
            RemoraCli run = RemoraCli.run("dump", "--native-frames", "--format", "json", pid);
            assertThat(run.exitCode()).as(run.err()).isZero();
            for (JsonNode frame : DumpJson.parse(run.out()).threads().get(pid).get("frames")) {
                if (frame.path("symbol").asText().equals("park_in_cxx")) {
                    return Optional.of(frame);
                }
            }
            Thread.sleep(100);
        }
        return Optional.empty();
    }

    private static void run(String... command) throws Exception {
        output(command);
    }

    private static String output(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes());
        assertThat(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0).as("%s: %s", command[0], out).isTrue();
        return out;
    }
}
