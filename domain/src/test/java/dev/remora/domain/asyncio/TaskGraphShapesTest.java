package dev.remora.domain.asyncio;

import dev.remora.domain.InspectionException;
import dev.remora.domain.model.FrameInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static dev.remora.domain.asyncio.FakeAsyncTarget.name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Task graphs of chosen shapes, laid out with each version's real offsets in made-up memory: how
 * chains are followed and where they stop, names, waiter sets, the running task's frames, and
 * cycles, which must end in an error or be cut, never be followed forever.
 */
@Timeout(30)
class TaskGraphShapesTest {

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void followsAwaitedCoroutinesUntilSomethingThatIsNotOne(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        long leafCode = t.code(), midCode = t.code(), topCode = t.code();
        long leaf = t.coroutine(leafCode, t.states.suspendedYieldFrom(), t.iterator());
        long mid = t.coroutine(midCode, t.states.suspendedYieldFrom(), leaf);
        long top = t.coroutine(topCode, t.states.suspendedYieldFrom(), mid);
        long task = t.task(t.threadTasks(), t.str("worker"), top);

        AsyncSnapshot s = t.builder().snapshot(AsyncMode.ALL);

        assertThat(s.threads()).extracting(AsyncThread::threadId).containsExactly(FakeAsyncTarget.THREAD_ID, 0L);
        assertThat(s.threads().getLast().tasks()).isEmpty();
        AsyncTask only = s.threads().getFirst().tasks().getFirst();
        assertThat(only.taskId()).isEqualTo(task);
        assertThat(only.name()).isEqualTo("worker");
        assertThat(only.coroutineStack()).containsExactly(
                new CoroutineStack(task, List.of(name(leafCode), name(midCode), name(topCode))));
        assertThat(only.awaitedBy()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void aCoroutineThatIsOnlySuspendedOrRunningEndsTheChain(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        long inner = t.coroutine(t.code(), t.states.suspendedYieldFrom(), t.iterator());
        long suspendedCode = t.code(), runningCode = t.code();
        // The awaited slot holds a coroutine, but only a coroutine suspended in await is waiting on it.
        long suspended = t.coroutine(suspendedCode, t.states.suspended(), 0);
        t.setAwaited(suspended, inner);
        long running = t.coroutine(runningCode, t.states.executing(), 0);
        t.setAwaited(running, inner);
        long cleared = t.coroutine(t.code(), t.states.cleared(), 0);
        t.task(t.threadTasks(), t.str("s"), suspended);
        t.task(t.threadTasks(), t.str("r"), running);
        t.task(t.threadTasks(), t.str("c"), cleared);
        t.task(t.threadTasks(), t.str("done"), 0);

        List<AsyncTask> tasks = t.builder().snapshot(AsyncMode.ALL).threads().getFirst().tasks();

        assertThat(tasks).extracting(x -> x.coroutineStack().getFirst().callStack()).containsExactly(
                List.of(name(suspendedCode)), List.of(name(runningCode)), List.<FrameInfo>of(), List.<FrameInfo>of());
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void namesUnnamedTasksAsAsyncioDoes(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        t.task(t.threadTasks(), t.smallInt(7), 0);
        t.task(t.interpreterTasks(), t.smallInt(12), 0);

        AsyncSnapshot s = t.builder().snapshot(AsyncMode.ALL);

        assertThat(s.threads().getFirst().tasks()).extracting(AsyncTask::name).containsExactly("Task-7");
        assertThat(s.threads().getLast().threadId()).isZero();
        assertThat(s.threads().getLast().tasks()).extracting(AsyncTask::name).containsExactly("Task-12");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void readsEveryWaiterOfASetAndSkipsRemovedSlots(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        long code = t.code();
        long shared = t.task(t.threadTasks(), t.str("shared"), 0);
        long w1 = t.task(t.threadTasks(), t.str("w1"), t.coroutine(code, t.states.suspended(), 0));
        long w2 = t.task(t.threadTasks(), t.str("w2"), 0);
        t.awaitedBySet(shared, w1, w2);
        t.awaitedBy(w2, w1);

        List<AsyncTask> tasks = t.builder().snapshot(AsyncMode.ALL).threads().getFirst().tasks();

        assertThat(tasks.getFirst().awaitedBy()).containsExactly(new Awaiter(w1, List.of(name(code))), new Awaiter(w2, List.of()));
        assertThat(tasks.get(2).awaitedBy()).containsExactly(new Awaiter(w1, List.of(name(code))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void theRunningTaskShowsTheThreadsFramesDownToItsCoroutineThenItsWaitersOnce(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        long coroCode = t.code(), calleeCode = t.code(), loopCode = t.code();
        long coro = t.coroutine(coroCode, t.states.executing(), 0);
        long running = t.task(t.threadTasks(), t.str("running"), coro);
        // The loop's frame lies beyond the task's coroutine: the stack is cut there.
        t.memory.putLong(t.frameOf(coro) + t.offsets.frame().previous(), t.threadFrame(loopCode, 0));
        t.running(running, t.threadFrame(calleeCode, t.frameOf(coro)));
        long a = t.task(t.threadTasks(), t.str("a"), 0);
        long b = t.task(t.threadTasks(), t.str("b"), 0);
        long c = t.task(t.threadTasks(), t.str("c"), 0);
        t.awaitedBySet(running, a, b);
        t.awaitedBySet(a, c, b); // b is reached twice,
        t.awaitedBy(c, running); // and c leads back to the running task.

        AsyncSnapshot s = t.builder().snapshot(AsyncMode.RUNNING);

        assertThat(s.threads()).hasSize(1);
        List<AsyncTask> tasks = s.threads().getFirst().tasks();
        assertThat(tasks).extracting(AsyncTask::name).containsExactly("running", "a", "b", "c");
        assertThat(tasks.getFirst().coroutineStack()).containsExactly(
                new CoroutineStack(running, List.of(name(calleeCode), name(coroCode))));
        assertThat(tasks.getFirst().awaitedBy()).extracting(Awaiter::taskId).containsExactly(a, b);
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void aRunningTaskOutsideItsCoroutineShowsTheWholeStack(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        long callSoon = t.code(), handleRun = t.code();
        long running = t.task(t.threadTasks(), t.str("between-steps"), t.coroutine(t.code(), t.states.suspended(), 0));
        t.running(running, t.threadFrame(callSoon, t.threadFrame(handleRun, 0)));

        AsyncTask task = t.builder().snapshot(AsyncMode.RUNNING).threads().getFirst().tasks().getFirst();

        assertThat(task.coroutineStack().getFirst().callStack()).containsExactly(name(callSoon), name(handleRun));
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void noRunningLoopMeansNoThreadInRunningMode(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        t.task(t.threadTasks(), t.str("idle"), 0);

        assertThat(t.builder().snapshot(AsyncMode.RUNNING).threads()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void aCoroutineAwaitingItselfIsAnErrorNotALoop(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        long coro = t.coroutine(t.code(), t.states.suspendedYieldFrom(), 0);
        t.setAwaited(coro, coro);
        t.task(t.threadTasks(), t.str("self"), coro);

        assertThatThrownBy(() -> t.builder().snapshot(AsyncMode.ALL))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("await chain").hasMessageContaining("loops");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void aTaskListThatLoopsBesideItsHeadIsAnError(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        long x = t.task(t.threadTasks(), t.str("x"), 0);
        long y = t.task(t.threadTasks(), t.str("y"), 0);
        // y's node points back to x's instead of to the head.
        long next = t.offsets.llistNode().orElseThrow().next();
        t.memory.putLong(y + t.asyncio.task().node() + next, x + t.asyncio.task().node());

        assertThatThrownBy(() -> t.builder().snapshot(AsyncMode.ALL))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("task list").hasMessageContaining("loops");
    }

    @ParameterizedTest
    @ValueSource(strings = {"3.14", "3.15"})
    void aGarbageFrameStateIsAnError(String minor) throws Exception {
        FakeAsyncTarget t = new FakeAsyncTarget(minor);
        t.task(t.threadTasks(), t.str("bad"), t.coroutine(t.code(), 99, 0));

        assertThatThrownBy(() -> t.builder().snapshot(AsyncMode.ALL))
                .isInstanceOf(InspectionException.CorruptTarget.class).hasMessageContaining("invalid frame state 99");
    }
}
