package dev.remora.domain.threads;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** 3.10's thread ids, read from glibc's struct pthread at an offset learned from the main thread. */
class NativeThreadIdsTest {

    private static final int PID = 4242;
    private static final long MAIN_PTHREAD = 0x7000_1000L;
    private static final long OTHER_PTHREAD = 0x7000_9000L;
    private static final int TID_AT = 0x2d0;

    /** Everything up to the pthread structs reads, as zeros where nothing was put. */
    private static ScriptedMemory memory() {
        return ScriptedMemory.live().zeroFilledBelow(0x7001_0000L);
    }

    private static byte[] state(DebugOffsets.Thread t, long pthread) {
        byte[] state = new byte[t.readLength()];
        Bytes.putLong(state, (int) t.threadId(), pthread);
        return state;
    }

    @Test
    void theTidOffsetIsLearnedFromTheMainThread() throws Exception {
        DebugOffsets.Thread t = DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, 10, 13, 0xF, 0)).thread();
        ScriptedMemory memory = memory();
        memory.putInt(MAIN_PTHREAD + TID_AT, PID);
        memory.putInt(OTHER_PTHREAD + TID_AT, PID + 1);
        SnapshotReader reader = new SnapshotReader(memory);
        NativeThreadIds ids = new NativeThreadIds(t, PID);

        assertThat(ids.of(state(t, MAIN_PTHREAD), reader)).as("before learning").isEqualTo(NativeThreadIds.UNKNOWN);
        ids.learnFrom(state(t, MAIN_PTHREAD), reader);
        assertThat(ids.of(state(t, MAIN_PTHREAD), reader)).isEqualTo(PID);
        assertThat(ids.of(state(t, OTHER_PTHREAD), reader)).isEqualTo(PID + 1);
        assertThat(ids.of(state(t, 0), reader)).as("no pthread_t: not started").isZero();
    }

    @Test
    void insideAPidNamespaceTheIdsAreUnknownNotZero() throws Exception {
        DebugOffsets.Thread t = DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, 10, 13, 0xF, 0)).thread();
        ScriptedMemory memory = memory();
        memory.putInt(MAIN_PTHREAD + TID_AT, 1); // the namespace's id of the main thread
        SnapshotReader reader = new SnapshotReader(memory);
        NativeThreadIds ids = new NativeThreadIds(t, PID);

        ids.learnFrom(state(t, MAIN_PTHREAD), reader);
        assertThat(ids.of(state(t, MAIN_PTHREAD), reader)).isEqualTo(NativeThreadIds.UNKNOWN);
    }
}
