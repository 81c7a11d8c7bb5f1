package dev.remora.domain.walk;

import dev.remora.domain.InspectionException;
import dev.remora.domain.discovery.RuntimeLocator.LocatedRuntime;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.testing.DebianRuntimeSections;
import dev.remora.ports.CpuState;
import dev.remora.ports.FileBytes;
import dev.remora.ports.MemoryMapping;
import dev.remora.ports.ProcessImage;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The walker over memory that is not a healthy CPython: it must end, with an error or an incomplete
 * stack, and never hang or run out of memory. The offsets are the real Debian ones.
 */
class GarbageMemoryTest {

    private static final long RUNTIME = 0x7f00_0000_0000L;

    @ParameterizedTest
    @ValueSource(strings = {"3.13", "3.14", "3.15"})
    @Timeout(120)
    void noiseEndsInAnErrorOrAnIncompleteStack(String minor) throws Exception {
        DebugOffsets offsets = DebugOffsetsDecoder.decode(DebianRuntimeSections.debugOffsets(minor));
        for (long seed = 1; seed <= 50; seed++) {
            PythonProcess process = PythonProcess.at(new NoImage(), SyntheticMemory.noise(seed),
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
    @ValueSource(strings = {"3.13", "3.14", "3.15"})
    @Timeout(60)
    void listsThatPointBackIntoThemselvesAreCaught(String minor) throws Exception {
        DebugOffsets offsets = DebugOffsetsDecoder.decode(DebianRuntimeSections.debugOffsets(minor));
        PythonProcess process = PythonProcess.at(new NoImage(), SyntheticMemory.constant(RUNTIME + 0x1000),
                new LocatedRuntime(RUNTIME, "synthetic", offsets));
        assertThatThrownBy(() -> process.snapshot(SnapshotOptions.threads(true)))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("loops");
    }

    /** A process image with nothing to say: only the walk is under test here. */
    private static final class NoImage implements ProcessImage {
        @Override
        public int pid() {
            return 4242;
        }

        @Override
        public List<MemoryMapping> mappings() {
            return List.of();
        }

        @Override
        public Optional<FileBytes> openFile(String path) {
            return Optional.empty();
        }

        @Override
        public List<Long> threadIds() {
            return List.of();
        }

        @Override
        public CpuState cpuState(long nativeThreadId) {
            return CpuState.UNKNOWN;
        }
    }
}
