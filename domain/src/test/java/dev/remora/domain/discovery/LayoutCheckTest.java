package dev.remora.domain.discovery;

import dev.remora.domain.InspectionException;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A generated layout is tested against the target's thread list before it is trusted. */
class LayoutCheckTest {

    private static final long INTERP = 0x10_0000;
    private static final long FIRST = 0x20_0000;
    private static final long SECOND = 0x30_0000;

    /** 8-byte words; {@code readsUntilSettled} reads see the list half changed, as while a thread starts. */
    private static final class ListTarget implements RemoteMemory {
        final Map<Long, Long> words = new HashMap<>();
        final Map<Long, Long> meanwhile = new HashMap<>();
        int readsUntilSettled;

        @Override
        public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
            boolean settled = readsUntilSettled-- <= 0;
            Long word = settled || !meanwhile.containsKey(address) ? words.get(address) : meanwhile.get(address);
            if (word == null) {
                throw new MemoryAccessException.Unmapped(address);
            }
            Bytes.putLong(dst, offset, word);
        }

        @Override
        public String backendName() {
            return "fake";
        }
    }

    private static DebugOffsets offsets312() throws InspectionException {
        return DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, 12, 1, 0xF, 0));
    }

    /** An interpreter with two thread states, laid out as {@code o} says. */
    private static ListTarget twoThreads(DebugOffsets o) {
        ListTarget target = new ListTarget();
        DebugOffsets.Thread t = o.thread();
        target.words.put(INTERP + o.interpreter().threadsHead(), FIRST);
        target.words.put(FIRST + t.interp(), INTERP);
        target.words.put(FIRST + t.prev(), 0L);
        target.words.put(FIRST + t.next(), SECOND);
        target.words.put(SECOND + t.interp(), INTERP);
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
        ListTarget target = twoThreads(o);
        target.words.put(FIRST + o.thread().interp(), 0xdeadL); // as if interp sat elsewhere in this build

        assertThatThrownBy(() -> new LayoutCheck(target, 42, o).check(INTERP))
                .isInstanceOf(InspectionException.UnsupportedVersion.class)
                .hasMessageContaining("process 42 runs CPython 3.12.1")
                .hasMessageContaining("3.12.1's headers")
                .hasMessageContaining("interpreter pointer");
    }

    @Test
    void aListCaughtHalfChangedIsReadAgain() throws Exception {
        DebugOffsets o = offsets312();
        ListTarget target = twoThreads(o);
        // A thread being linked in: the head's prev is set before the interpreter's head moves.
        target.meanwhile.put(FIRST + o.thread().prev(), 0x40_0000L);
        target.readsUntilSettled = 3;

        assertThatCode(() -> new LayoutCheck(target, 42, o).check(INTERP)).doesNotThrowAnyException();
        assertThat(target.readsUntilSettled).as("read more than once").isNegative();
    }
}
