package dev.remora.domain.discovery;

import dev.remora.domain.InspectionException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A generated layout is tested against the target's thread list before it is trusted. */
class LayoutCheckTest {

    private static final long INTERP = 0x10_0000;
    private static final long FIRST = 0x20_0000;
    private static final long SECOND = 0x30_0000;

    private static DebugOffsets offsets312() throws InspectionException {
        return DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, 12, 1, 0xF, 0));
    }

    /** An interpreter with two thread states, laid out as {@code o} says. */
    private static ScriptedMemory twoThreads(DebugOffsets o) {
        ScriptedMemory target = ScriptedMemory.live();
        DebugOffsets.Thread t = o.thread();
        target.putLong(INTERP + o.interpreter().threadsHead(), FIRST);
        target.putLong(FIRST + t.interp(), INTERP);
        target.putLong(FIRST + t.prev(), 0L);
        target.putLong(FIRST + t.next(), SECOND);
        target.putLong(SECOND + t.interp(), INTERP);
        return target;
    }

    @Test
    void aListThatFitsTheLayoutPasses() throws Exception {
        DebugOffsets o = offsets312();
        assertThatCode(() -> new LayoutCheck(twoThreads(o), 42, o).check(INTERP)).doesNotThrowAnyException();
    }

    @Test
    void aLayoutThatDoesNotFitIsOneErrorNamingTheVersion() throws Exception {
        DebugOffsets o = offsets312();
        ScriptedMemory target = twoThreads(o);
        target.putLong(FIRST + o.thread().interp(), 0xdeadL); // as if interp sat elsewhere in this build

        assertThatThrownBy(() -> new LayoutCheck(target, 42, o).check(INTERP))
                .isInstanceOf(InspectionException.UnsupportedVersion.class)
                .hasMessageContaining("process 42 runs CPython 3.12.1")
                .hasMessageContaining("3.12.1's headers")
                .hasMessageContaining("interpreter pointer");
    }

    @Test
    void aListCaughtHalfChangedIsReadAgain() throws Exception {
        DebugOffsets o = offsets312();
        ScriptedMemory target = twoThreads(o);
        // A thread being linked in: the head's prev is set before the interpreter's head moves.
        target.putLong(FIRST + o.thread().prev(), 0x40_0000L);
        target.beforeRead(4, () -> target.putLong(FIRST + o.thread().prev(), 0L));

        assertThatCode(() -> new LayoutCheck(target, 42, o).check(INTERP)).doesNotThrowAnyException();
        assertThat(target.reads()).as("read more than once").isGreaterThan(3);
    }
}
