package dev.remora.domain.asyncio;

import dev.remora.domain.threads.Interpreters;
import dev.remora.domain.testing.DebugOffsetsFixtures;
import dev.remora.ports.testing.SyntheticMemory;
import dev.remora.domain.testing.EmptyProcessImage;
import dev.remora.domain.InspectionException;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.RemoteMemory;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The task graph over memory that is not a healthy CPython: every reading ends, in an error or in a
 * graph, and never hangs or runs out of memory. The offsets are the real Debian ones (as fixtures).
 */
class AsyncGarbageMemoryTest {

    private static final long RUNTIME = 0x7f00_0000_0000L;

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    @Timeout(120)
    void noiseEndsInAnError(String minor) throws Exception {
        int readings = 0, errors = 0;
        for (long s = 1; s <= 50; s++) {
            long seed = s * 0x9e3779b97f4a7c15L;
            for (AsyncMode mode : AsyncMode.values()) {
                readings++;
                try {
                    builder(minor, SyntheticMemory.noise(seed)).snapshot(mode);
                } catch (InspectionException expected) {
                    errors++;
                    assertThat(expected).hasMessageNotContaining("null");
                }
            }
        }
        assertThat(errors).as("readings of noise that ended in an error").isEqualTo(readings);
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    @Timeout(60)
    void memoryThatPointsBackIntoItselfIsCaught(String minor) {
        // Every word is the same pointer: every list and chain loops.
        for (AsyncMode mode : AsyncMode.values()) {
            assertThatThrownBy(() -> builder(minor, SyntheticMemory.constant(RUNTIME + 0x1000)).snapshot(mode))
                    .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("loops");
        }
    }

    /**
     * A healthy graph (chains, a waiter set, names, a running task) with a few of its words
     * overwritten, by random values or by pointers back into it: whatever the damage, the reading ends.
     */
    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    @Timeout(120)
    void damagedGraphsEndInAnErrorOrAGraph(String minor) throws Exception {
        int graphs = 0;
        for (long seed = 1; seed <= 300; seed++) {
            FakeAsyncTarget t = healthyGraph(minor);
            Random random = new Random(seed);
            long start = t.interpreter + t.asyncio.interpreter().size();
            for (int i = 0; i < 1 + random.nextInt(4); i++) {
                long at = start + ((random.nextLong(t.memory.end() - start)) & ~7L);
                long value = random.nextBoolean() ? random.nextLong() : start + (random.nextLong(t.memory.end() - start) & ~7L);
                t.memory.putLong(at, value);
            }
            for (AsyncMode mode : AsyncMode.values()) {
                try {
                    t.builder().snapshot(mode);
                    graphs++;
                } catch (InspectionException expected) {
                    // A damaged thread state reads as a list that never holds together.
                    assertThat(expected).isInstanceOfAny(InspectionException.CorruptTarget.class,
                            InspectionException.Unreadable.class);
                }
            }
        }
        assertThat(graphs).as("damage that still left a readable graph").isPositive();
    }

    private static FakeAsyncTarget healthyGraph(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        long inner = t.coroutine(t.code(), t.states.suspendedYieldFrom(), t.iterator());
        long outer = t.coroutine(t.code(), t.states.suspendedYieldFrom(), inner);
        long shared = t.task(t.threadTasks(), t.str("shared"), outer);
        long w1 = t.task(t.threadTasks(), t.smallInt(3), t.coroutine(t.code(), t.states.suspended(), 0));
        long w2 = t.task(t.threadTasks(), t.str("w2"), t.coroutine(t.code(), t.states.suspendedYieldFrom(), t.iterator()));
        t.awaitedBySet(shared, w1, w2);
        t.awaitedBy(w1, w2);
        long coro = t.coroutine(t.code(), t.states.executing(), 0);
        long running = t.task(t.threadTasks(), t.str("running"), coro);
        t.running(running, t.threadFrame(t.code(), t.frameOf(coro)));
        t.awaitedBy(running, shared);
        t.task(t.interpreterTasks(), t.str("orphan"), 0);
        return t;
    }

    private static AsyncGraphBuilder builder(String minor, RemoteMemory memory) throws Exception {
        DebugOffsets offsets = AsyncioOffsetsTest.offsets(minor);
        AsyncioOffsets layout = AsyncioOffsets.decode(DebugOffsetsFixtures.asyncioSection(minor), offsets);
        SnapshotReader reader = new SnapshotReader(memory);
        return AsyncGraphBuilder.withLayout(new EmptyProcessImage(), reader, new ObjectReader(reader, offsets),
                offsets, new Interpreters(reader, offsets, RUNTIME, 1), (interp, code, ip) -> new FrameInfo("f", "f.py", SourceLocation.NONE), layout);
    }
}
