package dev.remora.domain.memory;

import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SnapshotReaderTest {

    private static final long TSTATE = 0x1000;
    private static final long FRAME = 0x10_0000;

    /** What the next batch of a reader in {@code order} serves for a thread state and a frame, a call landing after its first range. */
    private static long[] batchWithACallAfterTheFirstRange(StateOrder order) throws Exception {
        ScriptedMemory target = ScriptedMemory.live().map(TSTATE, ScriptedMemory.PAGE).map(FRAME, ScriptedMemory.PAGE);
        target.putLong(TSTATE, FRAME);
        target.putLong(FRAME, 0xAAAA);
        SnapshotReader reader = new SnapshotReader(target, order);
        reader.reset();
        reader.read(FRAME, new byte[8], 0, 8);
        reader.readState(TSTATE, new byte[8], 0, 8);
        target.afterRange(0, () -> {
            target.putLong(TSTATE, FRAME + 0x100);
            target.putLong(FRAME, 0xBBBB);
        });

        reader.reset();
        int reads = target.reads();
        byte[] state = new byte[8];
        byte[] frame = new byte[8];
        reader.readState(TSTATE, state, 0, 8);
        reader.read(FRAME, frame, 0, 8);
        assertThat(target.reads()).as("both from the batch").isEqualTo(reads);
        return new long[] {Bytes.getLong(state, 0), Bytes.getLong(frame, 0)};
    }

    @Test
    void threadStatesReadFirstComeBeforeTheFramesInTheNextBatches() throws Exception {
        long[] served = batchWithACallAfterTheFirstRange(StateOrder.STATE_FIRST);

        assertThat(served[0]).as("the thread state, read first").isEqualTo(FRAME);
        assertThat(served[1]).as("the frame, read after the call").isEqualTo(0xBBBB);
    }

    @Test
    void threadStatesReadBetweenComeAfterTheFramesInTheNextBatches() throws Exception {
        long[] served = batchWithACallAfterTheFirstRange(StateOrder.STATE_BETWEEN);

        assertThat(served[1]).as("the frame, read first").isEqualTo(0xAAAA);
        assertThat(served[0]).as("the thread state, read after the call").isEqualTo(FRAME + 0x100);
    }
}
