package dev.remora.app.asyncio;

import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.asyncio.AsyncTask;
import dev.remora.domain.asyncio.AsyncThread;
import dev.remora.domain.asyncio.Awaiter;
import dev.remora.domain.asyncio.CoroutineStack;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.offsets.PythonVersion;

import java.util.Arrays;
import java.util.List;

/** Small hand-made task graphs for the writers' tests. */
final class SampleGraphs {

    static final PythonVersion VERSION = PythonVersion.fromHex(0x030F02F0L);
    static final FrameInfo MAIN = frame("main", 10);
    static final FrameInfo GATHER = frame("gather_all", 20);
    static final FrameInfo WAIT = new FrameInfo("Event.wait", "/usr/lib/python3.15/asyncio/locks.py",
            new SourceLocation(213, 213, 12, 21));
    static final FrameInfo NO_LINE = new FrameInfo("<genexpr>", "/app/t.py", SourceLocation.NONE);

    private SampleGraphs() {}

    static FrameInfo frame(String function, int line) {
        return new FrameInfo(function, "/app/t.py", new SourceLocation(line, line, 4, 30));
    }

    static AsyncTask task(long id, String name, List<FrameInfo> frames, long... waiters) {
        List<Awaiter> awaitedBy = Arrays.stream(waiters).mapToObj(w -> new Awaiter(w, List.of(GATHER))).toList();
        return new AsyncTask(id, name, List.of(new CoroutineStack(id, frames)), awaitedBy);
    }

    /**
     * Thread 7: main (0x10) gathers 0x20 and 0x30, which both wait on 0x40 (named in UCS-4, with a
     * quote); thread 8 has no tasks; the fallback list holds one task.
     */
    static AsyncSnapshot all() {
        return new AsyncSnapshot(123, VERSION, AsyncMode.ALL, List.of(
                new AsyncThread(7, List.of(
                        task(0x10, "Task-1", List.of(MAIN)),
                        task(0x20, "a", List.of(GATHER), 0x10),
                        task(0x30, "b", List.of(GATHER), 0x10),
                        task(0x40, "sh\"ared-𐐀", List.of(WAIT, NO_LINE), 0x20, 0x30))),
                new AsyncThread(8, List.of()),
                new AsyncThread(0, List.of(task(0x50, "orphan", List.of(WAIT))))));
    }

    /** Thread 7 runs 0x40, which 0x20 waits on, which 0x10 waits on. */
    static AsyncSnapshot running() {
        return new AsyncSnapshot(123, VERSION, AsyncMode.RUNNING, List.of(
                new AsyncThread(7, List.of(
                        task(0x40, "worker", List.of(frame("spin", 3), frame("worker", 5)), 0x20),
                        task(0x20, "a", List.of(GATHER), 0x10),
                        task(0x10, "Task-1", List.of(MAIN))))));
    }
}
