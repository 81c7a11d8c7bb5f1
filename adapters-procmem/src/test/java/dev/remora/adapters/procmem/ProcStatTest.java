package dev.remora.adapters.procmem;

import static org.assertj.core.api.Assertions.assertThat;

import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.PtraceAdvice;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The stat line's state and start time, found past a command name that may contain ") ". */
class ProcStatTest {

    private static final String TAIL = " 1 1 1 0 -1 4194560 100 0 0 0 5 3 0 0 20 0 1 0 987654 1000 10";

    @Test
    void findsTheStateAfterTheLastParenthesis() {
        ProcStat stat = ProcStat.parse("4242 (evil) R (x) ) S" + TAIL);
        assertThat(stat.state()).isEqualTo('S');
        assertThat(stat.startTime()).hasValue(987654);
        assertThat(stat.exited()).isFalse();
    }

    @Test
    void findsTheParentAfterTheLastParenthesis() {
        assertThat(ProcStat.parse("4242 (evil) R (x) ) S 77 1 1 0").parent()).isEqualTo(77);
    }

    @Test
    void zombiesHaveExited() {
        assertThat(ProcStat.parse("1 (python3) Z" + TAIL).exited()).isTrue();
    }

    @Test
    void readsThisJvmsOwnStat() {
        Optional<ProcStat> self = Procfs.stat(Math.toIntExact(ProcessHandle.current().pid()));
        assertThat(self).hasValueSatisfying(s -> assertThat(s.startTime()).isPresent());
    }

    @Test
    void ptraceAdviceNamesThePidAndTheScope() {
        var e = new MemoryAccessException.PermissionDenied(0, PtraceAdvice.message(9, Optional.of("1")));
        assertThat(e).hasMessage("permission denied reading process 9: run as root or as its owner, or give the tool "
                + "CAP_SYS_PTRACE, and set /proc/sys/kernel/yama/ptrace_scope to 0 (it is 1)");
    }
}
