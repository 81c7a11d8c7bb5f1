package dev.remora.ports;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PtraceAdviceTest {

    @Test
    void adviceNamesThePtraceScopeOnlyWhereItIsInTheWay() {
        assertThat(PtraceAdvice.message(42, Optional.of("1"))).isEqualTo(
                "permission denied reading process 42: run as root or as its owner, or give the tool CAP_SYS_PTRACE, "
                        + "and set /proc/sys/kernel/yama/ptrace_scope to 0 (it is 1)");
        assertThat(PtraceAdvice.message(42, Optional.of("3"))).endsWith("is 3, which forbids it to everyone until a reboot");
        assertThat(PtraceAdvice.message(42, Optional.of("0"))).isEqualTo(
                "permission denied reading process 42: run as root or as its owner, or give the tool CAP_SYS_PTRACE");
        assertThat(PtraceAdvice.message(42, Optional.empty())).doesNotContain("ptrace_scope");
    }

    @Test
    void readsTheScopeFromTheFile(@TempDir Path dir) throws Exception {
        Path scope = dir.resolve("ptrace_scope");
        Files.writeString(scope, "2\n");
        assertThat(PtraceAdvice.currentScope(scope)).contains("2");
        assertThat(PtraceAdvice.currentScope(dir.resolve("absent"))).isEmpty();
    }
}
