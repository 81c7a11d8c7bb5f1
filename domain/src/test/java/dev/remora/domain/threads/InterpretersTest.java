package dev.remora.domain.threads;

import dev.remora.domain.InspectionException;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.domain.testing.DebugOffsetsFixtures;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The process step on every supported version's real layout (3.10-3.12 from their headers, 3.13 on
 * from Debian's debug offsets), over a scripted target whose thread list changes while it is read:
 * a list that does not hold together is read again apart from the batch, a core's list caught
 * mid-update keeps the threads that held together, and a list that never settles or loops fails.
 */
class InterpretersTest {

    private static final int PID = 4242;
    private static final long RUNTIME = 0x10_0000;
    private static final long INTERP = 0x20_0000;
    private static final long THREADS = 0x30_0000;
    private static final long PTHREADS = 0x40_0000;
    /** Where these tests' glibc keeps a thread's kernel id in its {@code struct pthread} (3.10 learns it). */
    private static final int TID_AT = 0x2d0;

    /** An interpreter whose thread states sit {@code 0x1000} apart, newest first, as a test links them. */
    private static final class Target {
        final DebugOffsets offsets;
        final ScriptedMemory memory;
        final List<Long> linked = new ArrayList<>();

        Target(DebugOffsets offsets, ScriptedMemory memory) {
            this.offsets = offsets;
            this.memory = memory;
            memory.map(RUNTIME, offsets.runtime().interpretersHead() + 8).putLong(RUNTIME + offsets.runtime().interpretersHead(), INTERP);
            memory.map(INTERP, offsets.interpreter().readLength());
        }

        /** The {@code n}-th thread state's address. */
        static long state(int n) {
            return THREADS + 0x1000L * n;
        }

        static int tid(int n) {
            return n == 0 ? PID : PID + 100 + n;
        }

        /** Starts thread {@code n}: a new thread state at the list's head, linked as CPython links it. */
        Target start(int n) {
            DebugOffsets.Thread t = offsets.thread();
            long address = state(n);
            long pthread = PTHREADS + 0x1000L * n;
            memory.map(address, t.readLength()).map(pthread, 0x1000);
            memory.putLong(address + t.interp(), INTERP).putLong(address + t.threadId(), pthread).putInt(pthread + TID_AT, tid(n));
            t.nativeThreadId().ifPresent(field -> memory.putLong(address + field, tid(n)));
            // A thread that ran some code: a data stack (3.11+), a frame (3.10).
            memory.putLong(address + t.datastackChunk().orElse(t.currentFrame()), 0x50_0000);
            long head = linked.isEmpty() ? 0 : linked.getFirst();
            memory.putLong(address + t.next(), head).putLong(address + t.prev(), 0);
            if (head != 0) {
                memory.putLong(head + t.prev(), address);
            }
            memory.putLong(INTERP + offsets.interpreter().threadsHead(), address);
            offsets.interpreter().threadsMain().ifPresent(field -> memory.putLong(INTERP + field, state(0)));
            linked.addFirst(address);
            return this;
        }

        Interpreters.Listing listing() throws Exception {
            return new Interpreters(new SnapshotReader(memory), offsets, RUNTIME, PID).listing();
        }
    }

    private static DebugOffsets offsets(String minor) throws InspectionException {
        int m = Integer.parseInt(minor.substring(2));
        return m <= 12 ? DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, m, 0, 0xF, 0))
                : DebugOffsetsDecoder.decode(DebugOffsetsFixtures.debugOffsets(minor));
    }

    private static List<Long> addresses(Interpreters.Listing listing) {
        return listing.threads().stream().map(Interpreters.ThreadRef::address).toList();
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.10", "3.11", "3.12", "3.13", "3.14", "3.15"})
    void everyStartedThreadIsListedNewestFirstWithItsKernelId(String minor) throws Exception {
        Target target = new Target(offsets(minor), ScriptedMemory.live()).start(0).start(1).start(2);

        Interpreters.Listing listing = target.listing();

        assertThat(listing.interpreters()).containsExactly(INTERP);
        assertThat(addresses(listing)).containsExactly(Target.state(2), Target.state(1), Target.state(0));
        assertThat(listing.threads()).extracting(Interpreters.ThreadRef::nativeId)
                .containsExactly((long) Target.tid(2), (long) Target.tid(1), (long) PID);
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.10", "3.12", "3.13", "3.15"})
    void aThreadStartedAfterTheHeadWasReadMakesTheListBeReadAgainApart(String minor) throws Exception {
        Target target = new Target(offsets(minor), ScriptedMemory.live()).start(0).start(1);
        // Linked in after the interpreter state was read, before the thread states are.
        target.memory.beforeReadOf(Target.state(1), () -> target.start(2));

        Interpreters.Listing listing = target.listing();

        assertThat(addresses(listing)).as("the list as it stands after the change")
                .containsExactly(Target.state(2), Target.state(1), Target.state(0));
    }

    @Test
    void aLiveListThatNeverHoldsTogetherFailsAsChanging() throws Exception {
        Target target = new Target(offsets("3.13"), ScriptedMemory.live()).start(0).start(1);
        target.memory.putLong(Target.state(0) + target.offsets.thread().prev(), 0x66_6000); // leads back elsewhere

        assertThatThrownBy(target::listing).isInstanceOf(InspectionException.Unreadable.class)
                .hasMessageContaining("thread list of process %d kept changing".formatted(PID));
        assertThat(target.memory.reads()).as("read again, a bounded number of times").isGreaterThan(ThreadList.ATTEMPTS)
                .isLessThan(10 * ThreadList.ATTEMPTS);
    }

    @Test
    void aCoresListCaughtMidUpdateKeepsTheThreadsThatHeldTogether() throws Exception {
        Target target = new Target(offsets("3.13"), ScriptedMemory.core()).start(0).start(1).start(2);
        target.memory.putLong(Target.state(0) + target.offsets.thread().prev(), 0x66_6000);

        assertThat(addresses(target.listing())).containsExactly(Target.state(2), Target.state(1));
    }

    @Test
    void aThreadListThatLoopsIsCorrupt() throws Exception {
        Target target = new Target(offsets("3.14"), ScriptedMemory.live()).start(0);
        target.memory.putLong(Target.state(0) + target.offsets.thread().next(), Target.state(0));

        assertThatThrownBy(target::listing).isInstanceOf(InspectionException.CorruptTarget.class)
                .hasMessageContaining("thread list of process %d loops".formatted(PID));
    }

    @Test
    void aThreadStateFreedWhileTheListIsReadIsReadAgain() throws Exception {
        Target target = new Target(offsets("3.15"), ScriptedMemory.live()).start(0).start(1).start(2);
        DebugOffsets.Thread t = target.offsets.thread();
        // Thread 1 exits between the read of thread 2 and its own: unlinked, then freed.
        target.memory.beforeReadOf(Target.state(1), () -> {
            target.memory.putLong(Target.state(2) + t.next(), Target.state(0));
            target.memory.putLong(Target.state(0) + t.prev(), Target.state(2));
            target.memory.unmap(Target.state(1), t.readLength());
        });

        assertThat(addresses(target.listing())).containsExactly(Target.state(2), Target.state(0));
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.10", "3.11", "3.12", "3.13", "3.14", "3.15"})
    void aHeadFreedAndTakenByAStateBeingMadeIsReadAgain(String minor) throws Exception {
        Target target = new Target(offsets(minor), ScriptedMemory.live()).start(0).start(1).start(2);
        DebugOffsets.Thread t = target.offsets.thread();
        long head = Target.state(2);
        // Thread 2 exits after the interpreter state was read; a new thread state takes its memory and
        // is read as CPython makes it, before it is linked: of this interpreter, no links, nothing run.
        target.memory.beforeReadOf(head, () -> {
            target.memory.putLong(INTERP + target.offsets.interpreter().threadsHead(), Target.state(1));
            target.memory.putLong(Target.state(1) + t.prev(), 0);
            target.memory.putLong(head + t.next(), 0).putLong(head + t.prev(), 0);
            target.memory.putLong(head + t.datastackChunk().orElse(t.currentFrame()), 0);
            if (!minor.equals("3.11")) { // 3.11 gives a new state its creator's ids
                target.memory.putLong(head + t.threadId(), 0);
                t.nativeThreadId().ifPresent(field -> target.memory.putLong(head + field, 0));
            }
        });

        assertThat(addresses(target.listing())).as("the list as it stands, not the state being made alone")
                .containsExactly(Target.state(1), Target.state(0));
    }

    @Test
    void aProcessWhoseOnlyThreadStateIsBeingMadeListsNoThreadOnceItStaysSo() throws Exception {
        Target target = new Target(offsets("3.14"), ScriptedMemory.live()).start(0);
        DebugOffsets.Thread t = target.offsets.thread();
        target.memory.putLong(Target.state(0) + t.datastackChunk().getAsLong(), 0)
                .putLong(Target.state(0) + t.nativeThreadId().getAsLong(), 0)
                .putLong(Target.state(0) + t.threadId(), 0);

        assertThat(addresses(target.listing())).as("read again a few times, then taken as it is").isEmpty();
    }

    @Test
    void aThreadWithNoKernelIdYetIsNotListed() throws Exception {
        Target target = new Target(offsets("3.13"), ScriptedMemory.live()).start(0).start(1);
        target.memory.putLong(Target.state(1) + target.offsets.thread().nativeThreadId().getAsLong(), 0);

        assertThat(addresses(target.listing())).containsExactly(Target.state(0));
    }

    @Test
    void aProcessWithNoInterpreterYetSaysSo() throws Exception {
        Target target = new Target(offsets("3.13"), ScriptedMemory.live());
        target.memory.putLong(RUNTIME + target.offsets.runtime().interpretersHead(), 0);

        assertThatThrownBy(target::listing).isInstanceOf(InspectionException.Unreadable.class)
                .hasMessageContaining("process %d has no Python interpreter".formatted(PID));
    }
}
