package dev.remora.app.cli;

import com.google.inject.Guice;
import dev.remora.adapters.coredump.CoreDump;
import dev.remora.adapters.coredump.CoreFileException;
import dev.remora.adapters.vmreadv.NativeBinding;
import dev.remora.app.Main;
import dev.remora.app.wiring.Backend;
import dev.remora.app.wiring.GuiceFactory;
import dev.remora.app.wiring.TargetPorts;
import dev.remora.app.wiring.TargetSource;
import dev.remora.ports.ProcessImageException;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Commands get their targets from the one source the run's injector holds, whatever command is run. */
class InjectedTargetsTest {

    /** Answers every open with "no such process" (or "not ELF"), after noting what was asked. */
    private static final class RecordingTargets implements TargetSource {
        final List<String> asked = new ArrayList<>();

        @Override
        public TargetPorts live(Backend backend, NativeBinding binding, int pid) throws ProcessImageException {
            asked.add(backend + "/" + binding + " " + pid);
            throw new ProcessImageException(ProcessImageException.Reason.NO_SUCH_PROCESS, "no process " + pid);
        }

        @Override
        public CoreDump core(Path core, Optional<Path> sysroot) throws CoreFileException {
            asked.add("core " + core.getFileName());
            throw new CoreFileException.NotElf("not a core: " + core.getFileName());
        }
    }

    private final RecordingTargets targets = new RecordingTargets();
    private final StringWriter err = new StringWriter();

    private int run(String... args) {
        GuiceFactory factory = new GuiceFactory(Guice.createInjector(b -> b.bind(TargetSource.class).toInstance(targets)));
        return Main.run(factory, new PrintWriter(new StringWriter()), new PrintWriter(err, true), args);
    }

    @Test
    void dumpAttachAndBenchOpenTheirPidThroughTheSource() {
        assertThat(run("dump", "--backend", "procmem", "4242")).isNotZero();
        assertThat(run("attach", "-d", "1", "--native-binding", "jna", "4343")).isNotZero();
        assertThat(run("bench", "--pid", "4444", "-d", "1")).isNotZero();
        assertThat(targets.asked).containsExactly("procmem/ffm 4242", "vmreadv/jna 4343", "vmreadv/ffm 4444");
    }

    @Test
    void aCoreIsOpenedThroughTheSourceAndItsFailureIsOneLine() {
        assertThat(run("dump", "--core", "/nonexistent/core.1")).isNotZero();
        assertThat(targets.asked).containsExactly("core core.1");
        assertThat(err.toString().strip()).isEqualTo("remora: not a core: core.1");
    }
}
