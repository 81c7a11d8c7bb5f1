package dev.remora.app.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;

/**
 * How the helper's answers are read, with a shell script standing in for the interpreter: it ignores
 * the arguments meant for Python and prints what a helper could.
 */
class CpythonBenchTest {

    @TempDir
    Path dir;

    private Path helper(String body) throws IOException {
        Path script = dir.resolve("python");
        Files.writeString(script, "#!/bin/sh\n" + body);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
        return script;
    }

    private CpythonBench start(Path helper) throws IOException {
        return CpythonBench.start(helper, 1, ThreadScope.all, BenchApi.stack, false);
    }

    @Test
    void readsTheAnswersAndPassesOverOtherOutput() throws Exception {
        Path helper = helper("""
                echo 'Warning: something the interpreter had to say'
                echo '{"ready": false}'
                echo '{"ready": true}'
                read seconds
                echo '{"calls": 0.5, "samples": 1, "failures": 0, "work_seconds": 1, "wall_seconds": 1}'
                echo '{"calls": 12, "samples": 11,'
                echo '{"wall_seconds": 0.5, "calls": 12, "samples": 11, "failures": 1, "work_seconds": 1.5e-05, "new": []}'
                read seconds
                echo '{"calls":3,"samples":3,"failures":0,"work_seconds":0.25,"wall_seconds":0.5}'
                """);
        try (CpythonBench bench = start(helper)) {
            bench.measure(1_000_000);
            bench.measure(1_000_000);

            assertThat(bench.result()).isEqualTo(new BenchResult("cpython", 15, 14, 1, 250_015_000, 1_000_000_000, Map.of()));
        }
    }

    @Test
    void aHelperThatEndsFailsWithItsLastLine() throws IOException {
        Path helper = helper("""
                echo '{"ready": true}'
                read seconds
                echo 'Traceback (most recent call last):'
                echo 'PermissionError: [Errno 1] Operation not permitted'
                """);
        try (CpythonBench bench = start(helper)) {
            assertThatThrownBy(() -> bench.measure(1_000_000))
                    .isInstanceOf(IOException.class)
                    .hasMessage("CPython's unwinder failed: PermissionError: [Errno 1] Operation not permitted");
        }
    }

    @Test
    void aHelperThatNeverGetsReadySaysWhy() throws IOException {
        Path helper = helper("echo '{\"error\": \"no such process\"}'\n");

        assertThatThrownBy(() -> start(helper))
                .isInstanceOf(IOException.class)
                .hasMessage("CPython's unwinder failed: {\"error\": \"no such process\"}");
    }
}
