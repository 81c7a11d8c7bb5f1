package dev.remora.app.dump;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Finding {@code _PyRuntime} where the obvious place is wrong or gone. */
@Tag("targets")
class RuntimeDiscoveryTest {

    private static final String SCRIPT = "targets/parked_main.py";

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    /** Debian's interpreters are static builds: their runtime is in the executable itself. */
    static List<TargetInterpreter> staticInterpreters() {
        List<TargetInterpreter> found = interpreters().stream().filter(TargetInterpreter::chrooted).toList();
        if (found.isEmpty()) {
            throw new IllegalStateException("no statically linked target provisioned");
        }
        return found;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void aSecondLibpythonLoadedByCtypesIsNotMistakenForTheRuntime(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-ctypes-")) {
            String library = secondLibpython(python, dir);
            try (Target target = Target.start(python, dir, List.of(dir.copyResource(SCRIPT), library))) {
                assertThat(Files.readString(Path.of("/proc/" + target.pid() + "/maps")))
                        .as("the second libpython is mapped").contains(library);
                assertMainParked(target.pid());
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("staticInterpreters")
    void anInterpreterWhoseBinaryWasDeletedIsFoundByItsCookie(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-deleted-")) {
            Path copy = dir.host("python-deleted");
            Files.copy(python.hostPath(python.exe()), copy);
            copy.toFile().setExecutable(true);
            List<String> command = new ArrayList<>(python.command());
            command.set(command.indexOf(python.exe()), dir.inRoot("python-deleted"));
            command.addAll(List.of("-I", dir.copyResource(SCRIPT)));
            try (Target target = Target.start(command)) {
                Files.delete(copy);
                assertThat(Files.readString(Path.of("/proc/" + target.pid() + "/maps"))).contains("python-deleted (deleted)");
                assertMainParked(target.pid());
            }
        }
    }

    private static void assertMainParked(long pid) throws InterruptedException {
        List<String> parked = List.of("main_park:16", "<module>:19");
        for (String backend : List.of("vmreadv", "procmem")) {
            List<String> frames = List.of();
            // READY comes one line before the main thread blocks: a dump in between sees line 15.
            for (int attempt = 0; attempt < 50 && !frames.equals(parked); attempt++) {
                if (attempt > 0) {
                    Thread.sleep(20);
                }
                RemoraCli run = RemoraCli.run("dump", "--format", "json", "--backend", backend, pid);
                assertThat(run.exitCode()).as(run.err()).isZero();
                JsonNode main = DumpJson.parse(run.out()).threads().get(pid);
                frames = DumpJson.frames(main).stream().map(f -> f.function() + ":" + f.line()).toList();
            }
            assertThat(frames).as(backend).isEqualTo(parked);
        }
    }

    /** Debian ships a shared libpython beside its static interpreter; pyenv's own gets a copy under another name. */
    private static String secondLibpython(TargetInterpreter python, ScratchDir dir) throws IOException {
        String soname = "libpython%d.%d.so.1.0".formatted(python.major(), python.minor());
        if (python.chrooted()) {
            return "/usr/lib/x86_64-linux-gnu/" + soname;
        }
        Path original = Path.of(python.exe()).getParent().resolveSibling("lib").resolve(soname);
        Files.copy(original, dir.host("copy-" + soname));
        return dir.inRoot("copy-" + soname);
    }

    /** A target that prints READY once parked. */
    private record Target(Process process) implements AutoCloseable {

        static Target start(TargetInterpreter python, ScratchDir dir, List<String> scriptAndArgs) throws IOException {
            return start(python.scriptCommand(scriptAndArgs.getFirst(), scriptAndArgs.subList(1, scriptAndArgs.size())));
        }

        static Target start(List<String> command) throws IOException {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String line = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).readLine();
            if (!"READY".equals(line)) {
                p.destroyForcibly();
                throw new IllegalStateException("target %s did not start: %s".formatted(command, line));
            }
            return new Target(p);
        }

        long pid() {
            return process.pid();
        }

        @Override
        public void close() {
            ParkedTarget.kill(process);
        }
    }
}
