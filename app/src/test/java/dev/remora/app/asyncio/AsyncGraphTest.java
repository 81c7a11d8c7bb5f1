package dev.remora.app.asyncio;

import dev.remora.adapters.procmem.ProcMemMemory;
import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.asyncio.GraphView.FrameView;
import dev.remora.app.asyncio.GraphView.TaskView;
import dev.remora.app.asyncio.GraphView.ThreadView;
import dev.remora.app.asyncio.RecordedTasks.Recorded;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.ports.RemoteMemory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The task graph of real 3.14 and 3.15 targets equals CPython's own reading of the same process
 * ({@code _remote_debugging.RemoteUnwinder}), except where CPython is wrong: 3.14 garbles non-ASCII
 * task names, so names are checked against the target's own {@code task.get_name()}; and 3.14 reads
 * only the main thread, so the other threads are checked against what the target recorded.
 */
@Tag("targets")
class AsyncGraphTest {

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all().stream().filter(t -> t.isAtLeast(3, 14)).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void everyTaskEqualsCpythonsView(TargetInterpreter python) throws Exception {
        try (AsyncTarget target = AsyncTarget.start(python, "targets/asyncio_graph.py")) {
            Compared compared = Compared.read(python, target, AsyncMode.ALL);
            AsyncSnapshot snapshot = compared.snapshot();
            RecordedTasks recorded = compared.recorded();
            GraphView ours = compared.ours();
            GraphView cpython = compared.cpython();
            cpythonNamesDifferOnlyWhereItGarblesThem(cpython, recorded.names());
            assertThat(snapshotThroughProcMem(target, AsyncMode.ALL)).as("through /proc/PID/mem").isEqualTo(snapshot);
            // Every thread of the process, then the interpreter's fallback list (empty here).
            assertThat(ours.threadIds()).containsAll(recorded.byThread().keySet()).endsWith(0L);
            assertThat(ours.threads().getLast().tasks()).isEmpty();
            for (var entry : recorded.byThread().entrySet()) {
                assertThat(tasksOf(ours, entry.getKey())).as("tasks of thread %d as the target sees them", entry.getKey())
                        .isEqualTo(sorted(entry.getValue()));
            }
            assertThat(recorded.names().values()).contains("naïve-é", "Āē-ucs2", "𐐀-ucs4", "shared", "deep-chain");
            assertThat(recorded.names().values()).anyMatch(n -> n.matches("Task-\\d+"));
            TaskView shared = ours.threads().stream().flatMap(t -> t.tasks().stream())
                    .filter(t -> t.name().equals("shared")).findFirst().orElseThrow();
            assertThat(shared.awaitedBy()).as("a task awaited by a set of waiters").hasSize(3);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void runningTasksEqualCpythonsView(TargetInterpreter python) throws Exception {
        try (AsyncTarget target = AsyncTarget.start(python, "targets/asyncio_running.py")) {
            Compared compared = Compared.read(python, target, AsyncMode.RUNNING);
            RecordedTasks recorded = compared.recorded();
            GraphView ours = compared.ours();
            assertThat(ours.threadIds()).containsExactlyInAnyOrderElementsOf(recorded.byThread().keySet());
            Map<Long, String> names = recorded.names();
            for (ThreadView thread : ours.threads()) {
                assertThat(thread.tasks()).allSatisfy(t -> assertThat(t.name()).isEqualTo(names.get(t.taskId())));
                TaskView running = thread.tasks().getFirst();
                assertThat(running.name()).isIn("blocker", "other-blocker-é");
                assertThat(running.coroutineStack().getFirst().frames()).extracting(FrameView::function)
                        .containsExactly("block", "block", "block", "inner", "outer");
            }
        }
    }

    /**
     * Remora's reading of the target beside CPython's and the target's own record, checked to agree
     * on the threads CPython reads (with the names the target gave its tasks).
     */
    private record Compared(AsyncSnapshot snapshot, RecordedTasks recorded, GraphView ours, GraphView cpython) {

        static Compared read(TargetInterpreter python, AsyncTarget target, AsyncMode mode) throws Exception {
            AsyncSnapshot snapshot = AsyncGraphTest.snapshot(target, mode);
            RecordedTasks recorded = RecordedTasks.of(target.recorded());
            boolean full = python.isAtLeast(3, 15);
            GraphView ours = GraphView.of(snapshot, full);
            GraphView cpython = GraphView.ofCpython(CpythonAsyncReference.read(python, target.pid(), mode), full);
            assertThat(snapshot.mode()).isEqualTo(mode);
            assertThat(ours.onlyThreads(cpython.threadIds())).isEqualTo(cpython.renamed(recorded.names()));
            return new Compared(snapshot, recorded, ours, cpython);
        }
    }

    /** CPython 3.14 reads a non-ASCII name as NULs; every other name it gets right. */
    private static void cpythonNamesDifferOnlyWhereItGarblesThem(GraphView cpython, Map<Long, String> names) {
        for (ThreadView thread : cpython.threads()) {
            for (TaskView task : thread.tasks()) {
                String real = names.get(task.taskId());
                if (!task.name().equals(real)) {
                    assertThat(real).as("a name CPython gets wrong").matches(".*[^\\x00-\\x7f].*");
                    assertThat(task.name()).matches("\\x00*");
                }
            }
        }
    }

    private static AsyncSnapshot snapshotThroughProcMem(AsyncTarget target, AsyncMode mode) throws Exception {
        return snapshot(ProcMemMemory.open(target.pid()), target, mode);
    }

    static AsyncSnapshot snapshot(AsyncTarget target, AsyncMode mode) throws Exception {
        return snapshot(VmReadvMemory.open(target.pid()), target, mode);
    }

    private static AsyncSnapshot snapshot(RemoteMemory opened, AsyncTarget target, AsyncMode mode) throws Exception {
        try (RemoteMemory memory = opened) {
            return PythonProcess.attach(ProcfsProcessImage.of(target.pid()), memory).asyncSnapshot(mode);
        }
    }

    /** A thread's tasks as the target can see them: id, name and await chain (lines only), by id. */
    private static List<Recorded> tasksOf(GraphView graph, long threadId) {
        ThreadView thread = graph.threads().stream().filter(t -> t.threadId() == threadId).findFirst().orElseThrow();
        return sorted(thread.tasks().stream().map(t -> new Recorded(t.taskId(), t.name(),
                t.coroutineStack().getFirst().frames().stream()
                        .map(f -> new FrameView(f.function(), f.file(), f.line(), null, null, null)).toList())).toList());
    }

    private static List<Recorded> sorted(List<Recorded> tasks) {
        return tasks.stream().sorted(Comparator.comparingLong(Recorded::taskId)).toList();
    }
}
