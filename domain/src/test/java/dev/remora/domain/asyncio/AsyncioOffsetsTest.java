package dev.remora.domain.asyncio;

import dev.remora.domain.InspectionException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.testing.DebugOffsetsFixtures;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Decodes the AsyncioDebug sections the Debian interpreters ship (as fixtures), and rejects damaged copies. */
class AsyncioOffsetsTest {

    @ParameterizedTest
    @CsvSource({
            // minor, interpreter state size, tasks head there, thread state size, running loop, running task, tasks head
            "3.14, 225864, 10880, 936, 864, 872, 880",
            "3.15, 226240, 10856, 1104, 1024, 1032, 1048"})
    void decodesTheShippedSection(String minor, long interpSize, long interpHead, long threadSize, long loop,
                                  long running, long threadHead) throws Exception {
        AsyncioOffsets a = AsyncioOffsets.decode(DebugOffsetsFixtures.asyncioSection(minor), offsets(minor));

        assertThat(a.task()).isEqualTo(new AsyncioOffsets.Task(168, 136, 96, 108, 109, 128, 152));
        assertThat(a.interpreter()).isEqualTo(new AsyncioOffsets.InterpreterState(interpSize, interpHead));
        assertThat(a.thread()).isEqualTo(new AsyncioOffsets.ThreadState(threadSize, loop, running, threadHead));
    }

    @ParameterizedTest
    @CsvSource({
            "0, 0", // task size
            "0, 1000000", // task size beyond any object
            "6, 160", // task_node: a 16-byte node does not fit a 168-byte task at 160
            "3, 168", // task_is_task outside the task
            "7, 0", // interpreter state size
            "8, 226240", // interpreter tasks head outside the interpreter
            "9, 8", // thread state smaller than the runtime's PyThreadState
            "12, 2000"}) // thread tasks head outside the thread state
    void rejectsOffsetsOutsideTheirStructs(int index, long value) {
        byte[] raw = DebugOffsetsFixtures.asyncioSection("3.15");
        ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN).putLong(index * 8, value);
        assertThatThrownBy(() -> AsyncioOffsets.decode(raw, offsets("3.15")))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageStartingWith("AsyncioDebug: ");
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 50, 103})
    void rejectsAShortRead(int length) {
        assertThatThrownBy(() -> AsyncioOffsets.decode(new byte[length], offsets("3.15")))
                .isInstanceOf(InspectionException.CorruptTarget.class);
    }

    static DebugOffsets offsets(String minor) throws InspectionException {
        return DebugOffsetsDecoder.decode(DebugOffsetsFixtures.debugOffsets(minor));
    }
}
