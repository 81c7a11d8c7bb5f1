package dev.remora.adapters.vmreadv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remora.ports.MemoryAccessException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What each errno becomes, and the advice given when ptrace rules refuse a read. */
class ErrnoTest {

    @Test
    void mapsErrnoToTheTypedFailure() {
        assertThat(Errno.toException(Errno.EFAULT, 7, 0x1000)).isInstanceOf(MemoryAccessException.Unmapped.class)
                .extracting(MemoryAccessException::address).isEqualTo(0x1000L);
        assertThat(Errno.toException(Errno.ESRCH, 7, 0x1000)).isInstanceOf(MemoryAccessException.ProcessGone.class);
        assertThat(Errno.toException(Errno.EPERM, 7, 0x1000))
                .isInstanceOf(MemoryAccessException.PermissionDenied.class)
                .hasMessageStartingWith("permission denied reading process 7: run as root, or give the tool "
                        + "CAP_SYS_PTRACE, or set /proc/sys/kernel/yama/ptrace_scope to 0");
        assertThat(Errno.toException(Errno.EACCES, 7, 0x1000)).isInstanceOf(MemoryAccessException.PermissionDenied.class);
        assertThat(Errno.toException(Errno.ENOSYS, 7, 0x1000)).isInstanceOf(MemoryAccessException.Unavailable.class);
        assertThat(Errno.toException(999, 7, 0x1000)).isInstanceOf(MemoryAccessException.Unavailable.class)
                .hasMessageContaining("errno 999");
    }

    @Test
    void onlyProcessWideErrorsStopABatch() {
        assertThat(Errno.affectsWholeProcess(Errno.ESRCH)).isTrue();
        assertThat(Errno.affectsWholeProcess(Errno.EPERM)).isTrue();
        assertThat(Errno.affectsWholeProcess(Errno.EFAULT)).isFalse();
    }

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
