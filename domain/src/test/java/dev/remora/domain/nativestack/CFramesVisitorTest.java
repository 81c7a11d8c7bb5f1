package dev.remora.domain.nativestack;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;
import dev.remora.ports.ThreadRegisters;
import dev.remora.ports.ZstdDecoder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** A sample held while the target is stopped and sent on, C frames merged in, once it runs again. */
class CFramesVisitorTest {

    private static final FrameInfo PARK = new FrameInfo("park", "t.py", SourceLocation.NONE);
    private static final FrameInfo MAIN = new FrameInfo("main", "t.py", SourceLocation.NONE);
    private static final long PC = 0x1234;

    /** No memory at all: every walk ends at its first frame, which lies in no mapping. */
    private static final RemoteMemory NO_MEMORY = new RemoteMemory() {
        @Override
        public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
            throw new MemoryAccessException.Unmapped(address);
        }

        @Override
        public String backendName() {
            return "none";
        }
    };

    /** What the profile was sent, one line per event. */
    private static final class Recorded implements StackVisitor {
        final List<String> events = new ArrayList<>();
        final Set<Long> kept;

        Recorded(Set<Long> kept) {
            this.kept = kept;
        }

        @Override
        public void beginInterpreter(long interpreterId) {
            events.add("interpreter " + interpreterId);
        }

        @Override
        public boolean beginThread(long interpreterId, long threadId, int status) {
            events.add("thread " + threadId);
            return kept.contains(threadId);
        }

        @Override
        public void frame(FrameInfo frame) {
            events.add((frame.isNative() ? "C " : "py ") + frame.function());
        }

        @Override
        public void statusAfterWalk(int status, int cpuSamples) {
            events.add("status " + status);
        }

        @Override
        public void endThread(Optional<StackProblem> problem) {
            events.add("end");
        }
    }

    private static CFramesVisitor visitor(Recorded next, Map<Long, ThreadRegisters> registers) {
        NativeUnwinder unwinder = new NativeUnwinder(NO_MEMORY,
                NativeModules.of(List.of(), path -> Optional.empty(), NO_MEMORY, ZstdDecoder.NONE));
        return new CFramesVisitor(next, unwinder, new StackMerge("/usr/bin/python3", InternalFrames.HIDDEN), Map.of(),
                tid -> Optional.ofNullable(registers.get(tid)));
    }

    private static ThreadRegisters at(long pc) {
        long[] registers = new long[ThreadRegisters.COUNT];
        registers[ThreadRegisters.RIP] = pc;
        registers[ThreadRegisters.RSP] = 0x7ffc0000L;
        return ThreadRegisters.ofDwarf(registers);
    }

    private static void walk(CFramesVisitor visitor, long threadId) {
        assertThat(visitor.beginThread(0, threadId, 0)).as("every thread is walked while stopped").isTrue();
        visitor.statusAfterWalk(7, 1);
        visitor.frame(PARK);
        visitor.frame(MAIN);
        visitor.endThread(Optional.empty());
    }

    @Test
    void nothingReachesTheProfileUntilTheFlushAndThenAllInTheWalksOrder() {
        Recorded next = new Recorded(Set.of(1L, 2L));
        CFramesVisitor visitor = visitor(next, Map.of(1L, at(PC), 2L, at(PC)));
        visitor.beginInterpreter(0);
        walk(visitor, 1);
        walk(visitor, 2);
        assertThat(next.events).isEmpty();

        visitor.flush();
        assertThat(next.events).containsExactly(
                "interpreter 0",
                "thread 1", "status 7", "C 0x1234", "py park", "py main", "end",
                "thread 2", "status 7", "C 0x1234", "py park", "py main", "end");
    }

    @Test
    void aThreadThatExitedWhileStoppedGoesOnWithItsPythonFramesAlone() {
        Recorded next = new Recorded(Set.of(1L));
        CFramesVisitor visitor = visitor(next, Map.of());
        walk(visitor, 1);
        visitor.flush();
        assertThat(next.events).containsExactly("thread 1", "status 7", "py park", "py main", "end");
    }

    @Test
    void aThreadTheProfileDoesNotKeepIsLeftOutAtTheFlush() {
        Recorded next = new Recorded(Set.of(2L));
        CFramesVisitor visitor = visitor(next, Map.of(1L, at(PC), 2L, at(PC)));
        walk(visitor, 1);
        walk(visitor, 2);
        visitor.flush();
        assertThat(next.events).containsExactly("thread 1", "thread 2", "status 7", "C 0x1234", "py park", "py main", "end");
    }

    @Test
    void aFlushSendsASampleOnce() {
        Recorded next = new Recorded(Set.of(1L));
        CFramesVisitor visitor = visitor(next, Map.of(1L, at(PC)));
        walk(visitor, 1);
        visitor.flush();
        int sent = next.events.size();
        visitor.flush();
        assertThat(next.events).hasSize(sent);
    }
}
