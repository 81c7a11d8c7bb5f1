package dev.remora.domain.walk;

import dev.remora.domain.testing.EmptyProcessImage;
import dev.remora.ports.testing.SyntheticMemory;
import dev.remora.domain.InspectionException;
import dev.remora.domain.discovery.RuntimeLocator.LocatedRuntime;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.domain.testing.DebugOffsetsFixtures;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;


import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The walker over memory that is not a healthy CPython: it must end, with an error or an incomplete
 * stack, and never hang or run out of memory. The offsets are the real Debian ones, and the
 * generated tables of 3.11 and 3.12.
 */
class GarbageMemoryTest {

    private static final long RUNTIME = 0x7f00_0000_0000L;

    @ParameterizedTest
    @ValueSource(strings = {"3.10", "3.11", "3.12", "3.13", "3.14", "3.15"})
    @Timeout(120)
    void noiseEndsInAnErrorOrAnIncompleteStack(String minor) throws Exception {
        DebugOffsets offsets = offsets(minor);
        for (long seed = 1; seed <= 50; seed++) {
            PythonProcess process = PythonProcess.at(new EmptyProcessImage(), SyntheticMemory.noise(seed),
                    new LocatedRuntime(RUNTIME, "synthetic", offsets));
            try {
                ProcessStacks stacks = process.snapshot(SnapshotOptions.threads(true));
                stacks.interpreters().forEach(i -> i.threads().forEach(t ->
                        assertThat(t.problem()).as("garbage frames must be reported").isPresent()));
            } catch (InspectionException expected) {
                assertThat(expected).hasMessageNotContaining("null");
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.10", "3.11", "3.12", "3.13", "3.14", "3.15"})
    @Timeout(60)
    void listsThatPointBackIntoThemselvesAreCaught(String minor) throws Exception {
        DebugOffsets offsets = offsets(minor);
        PythonProcess process = PythonProcess.at(new EmptyProcessImage(), SyntheticMemory.constant(RUNTIME + 0x1000),
                new LocatedRuntime(RUNTIME, "synthetic", offsets));
        assertThatThrownBy(() -> process.snapshot(SnapshotOptions.threads(true)))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("loops");
    }

    /** The real Debian debug offsets (3.13+), or the generated table of a version that exports none. */
    private static DebugOffsets offsets(String minor) throws InspectionException {
        int m = Integer.parseInt(minor.substring(2));
        return m >= 13 ? DebugOffsetsDecoder.decode(DebugOffsetsFixtures.debugOffsets(minor))
                : DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, m, 0, 0xF, 0));
    }
}
