package dev.remora.domain.offsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The frame states of each version, as Include/internal/pycore_frame.h numbers them. */
class GeneratorStatesTest {

    private static GeneratorStates of(int major, int minor) {
        return VersionLayout.forVersion(new PythonVersion(major, minor, 0, 0xF, 0)).orElseThrow().generatorStates().orElseThrow();
    }

    @Test
    void cpython313And314CountFromMinusThree() {
        for (GeneratorStates s : new GeneratorStates[] {of(3, 13), of(3, 14)}) {
            assertThat(s.awaiting(-1)).isTrue();
            assertThat(s.awaiting(-2)).as("suspended at a plain yield").isFalse();
            assertThat(s.cleared(4)).isTrue();
            assertThat(s.isValid(1)).as("completed").isTrue();
            assertThat(s.isValid(2)).isFalse();
            assertThat(s.isValid(-4)).isFalse();
        }
    }

    @Test
    void cpython315CountsFromZeroAndHasALockedAwait() {
        GeneratorStates s = of(3, 15);
        assertThat(s.awaiting(2)).isTrue();
        assertThat(s.awaiting(3)).as("SUSPENDED_YIELD_FROM_LOCKED").isTrue();
        assertThat(s.awaiting(1)).isFalse();
        assertThat(s.cleared(5)).isTrue();
        assertThat(s.isValid(0)).as("created").isTrue();
        assertThat(s.isValid(4)).as("executing").isTrue();
        assertThat(s.isValid(-1)).isFalse();
        assertThat(s.isValid(6)).isFalse();
    }

    @Test
    void theAwaitedObjectSitsOneSlotDeeperIn315() {
        assertThat(VersionLayout.forVersion(new PythonVersion(3, 13, 0, 0xF, 0)).orElseThrow().awaitedStackDepth()).isEmpty();
        assertThat(VersionLayout.forVersion(new PythonVersion(3, 14, 0, 0xF, 0)).orElseThrow().awaitedStackDepth()).hasValue(1);
        assertThat(VersionLayout.forVersion(new PythonVersion(3, 15, 0, 0xF, 0)).orElseThrow().awaitedStackDepth()).hasValue(2);
    }
}
