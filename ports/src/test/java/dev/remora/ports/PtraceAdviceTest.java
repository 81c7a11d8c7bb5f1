package dev.remora.ports;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class PtraceAdviceTest {

    @Test
    void adviceQuotesTheCurrentPtraceScope() {
        assertThat(PtraceAdvice.message(42, Optional.of("1"))).isEqualTo(
                "permission denied reading process 42: run as root, or give the tool CAP_SYS_PTRACE, "
                        + "or set /proc/sys/kernel/yama/ptrace_scope to 0 (it is 1)");
        assertThat(PtraceAdvice.message(42, Optional.of("3"))).endsWith("(it is 3, which only a reboot can lower)");
        assertThat(PtraceAdvice.message(42, Optional.empty())).endsWith("ptrace_scope to 0");
    }

    @Test
    void readsTheScopeFromTheFile(@TempDir Path dir) throws Exception {
        Path scope = dir.resolve("ptrace_scope");
        Files.writeString(scope, "2\n");
        assertThat(PtraceAdvice.currentScope(scope)).contains("2");
        assertThat(PtraceAdvice.currentScope(dir.resolve("absent"))).isEmpty();
    }
}
