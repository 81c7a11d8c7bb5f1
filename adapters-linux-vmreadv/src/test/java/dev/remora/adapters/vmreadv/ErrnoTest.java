package dev.remora.adapters.vmreadv;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remora.ports.MemoryAccessException;
import org.junit.jupiter.api.Test;

/** What each errno becomes. */
class ErrnoTest {

    @Test
    void mapsErrnoToTheTypedFailure() {
        assertThat(Errno.toException(Errno.EFAULT, 7, 0x1000)).isInstanceOf(MemoryAccessException.Unmapped.class)
                .extracting(MemoryAccessException::address).isEqualTo(0x1000L);
        assertThat(Errno.toException(Errno.ESRCH, 7, 0x1000)).isInstanceOf(MemoryAccessException.ProcessGone.class);
        assertThat(Errno.toException(Errno.EPERM, 7, 0x1000))
                .isInstanceOf(MemoryAccessException.PermissionDenied.class)
                .hasMessageStartingWith("permission denied reading process 7: run as root or as its owner, or give the tool "
                        + "CAP_SYS_PTRACE");
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
}
