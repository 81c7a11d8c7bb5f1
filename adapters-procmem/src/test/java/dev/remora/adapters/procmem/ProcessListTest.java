package dev.remora.adapters.procmem;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The host's processes from /proc: this JVM among them, with its parent and command line. */
class ProcessListTest {

    @Test
    void listsThisJvmWithItsParentAndCommand() throws Exception {
        ProcessHandle self = ProcessHandle.current();
        ProcessList.Entry entry = ProcessList.all().stream()
                .filter(e -> e.pid() == self.pid())
                .findFirst().orElseThrow();
        assertThat((long) entry.parent()).isEqualTo(self.parent().orElseThrow().pid());
        assertThat(entry.command().getFirst()).endsWith("java");
        assertThat(entry.startTicks()).isPositive().isLessThanOrEqualTo(ProcessList.uptimeTicks());
        assertThat(entry.command()).isEqualTo(self.info().arguments().map(args -> {
            List<String> all = new java.util.ArrayList<>(List.of(entry.command().getFirst()));
            all.addAll(List.of(args));
            return all;
        }).orElseThrow());
    }

    @Test
    void splitsTheCommandLineAtNulBytes() {
        assertThat(ProcessList.command("python3\0-c\0print(1)\0".getBytes(StandardCharsets.UTF_8)))
                .containsExactly("python3", "-c", "print(1)");
        assertThat(ProcessList.command("a\0\0b\0".getBytes(StandardCharsets.UTF_8))).containsExactly("a", "", "b");
        assertThat(ProcessList.command(new byte[0])).isEmpty();
    }
}
