package dev.remora.app.dump;

import dev.remora.app.testing.ExpectedFrame;
import dev.remora.app.testing.ExpectedThread;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ParkedThreads;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --native-binding}: every binding dumps the same stacks, and it is refused where it means nothing. */
@Tag("targets")
class NativeBindingDumpTest {

    @Test
    void jnaAndJnrDumpTheSameStacksAsFfm() {
        TargetInterpreter python = TargetInterpreters.all().getFirst();
        try (ParkedTarget target = ParkedThreads.start(python)) {
            Map<Long, List<ExpectedFrame>> ffm = stacks(target, "ffm");
            assertThat(ffm).hasSize(target.expected().threads().size());
            for (ExpectedThread want : target.expected().threads()) {
                assertThat(ffm.get(want.threadId())).as("thread %s via ffm", want.name())
                        .containsExactlyElementsOf(want.frames());
            }
            assertThat(stacks(target, "jna")).isEqualTo(ffm);
            assertThat(stacks(target, "jnr")).isEqualTo(ffm);
        }
    }

    /** Every command that reads a live process checks the pair before it starts or attaches to anything. */
    @ParameterizedTest
    @ValueSource(strings = {"dump", "attach", "run", "bench"})
    void aBindingWithProcmemIsAUsageError(String command) {
        List<String> args = switch (command) {
            case "dump", "attach" -> List.of(command, "--backend", "procmem", "--native-binding", "jna", "1");
            case "run" -> List.of(command, "--backend", "procmem", "--native-binding", "jna", "script.py");
            default -> List.of(command, "--backend", "procmem", "--native-binding", "jna", "--pid", "1");
        };
        RemoraCli run = RemoraCli.run(args.toArray());
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo(
                "remora: --native-binding jna applies only with --backend vmreadv, not procmem" + System.lineSeparator());
    }

    private static Map<Long, List<ExpectedFrame>> stacks(ParkedTarget target, String binding) {
        RemoraCli run = RemoraCli.run("dump", "-a", "--format", "json", "--native-binding", binding, target.pid());
        assertThat(run.exitCode()).as(run.err()).isZero();
        Map<Long, List<ExpectedFrame>> stacks = new TreeMap<>();
        DumpJson.parse(run.out()).threads().forEach((id, thread) -> stacks.put(id, DumpJson.frames(thread)));
        return stacks;
    }
}
