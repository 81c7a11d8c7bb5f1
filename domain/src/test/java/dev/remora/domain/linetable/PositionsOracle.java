package dev.remora.domain.linetable;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs dump_positions.py in a target interpreter, split into shards that run side by side,
 * and returns the dump file of each shard. Any failure of a shard is an error.
 */
final class PositionsOracle {

    private static final String SCRIPT_RESOURCE = "/linetable/dump_positions.py";
    private static final long TIMEOUT_MINUTES = 5;

    private PositionsOracle() {
    }

    static List<Path> dump(InterpreterTarget target, Path workDirectory, int shards)
            throws IOException, InterruptedException {
        String script = script();
        List<Process> processes = new ArrayList<>();
        List<Path> outputs = new ArrayList<>();
        List<Path> errors = new ArrayList<>();
        try {
            for (int shard = 0; shard < shards; shard++) {
                Path output = workDirectory.resolve(target.name() + "." + shard + ".bin");
                Path error = workDirectory.resolve(target.name() + "." + shard + ".err");
                // -I: ignore PYTHON* variables and user site-packages of the host.
                List<String> command = target.command(List.of("-I", "-c", script, Integer.toString(shard),
                        Integer.toString(shards)));
                processes.add(new ProcessBuilder(command)
                        .redirectOutput(output.toFile())
                        .redirectError(error.toFile())
                        .start());
                outputs.add(output);
                errors.add(error);
            }
            for (int shard = 0; shard < shards; shard++) {
                Process process = processes.get(shard);
                if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                    throw new IllegalStateException(target + ": shard " + shard + " still running after "
                            + TIMEOUT_MINUTES + " minutes");
                }
                if (process.exitValue() != 0) {
                    throw new IllegalStateException(target + ": shard " + shard + " exited with "
                            + process.exitValue() + ":\n"
                            + new String(Files.readAllBytes(errors.get(shard)), StandardCharsets.UTF_8));
                }
            }
            return outputs;
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
    }

    private static String script() throws IOException {
        try (InputStream in = PositionsOracle.class.getResourceAsStream(SCRIPT_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource " + SCRIPT_RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
