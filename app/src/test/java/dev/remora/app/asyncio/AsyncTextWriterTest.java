package dev.remora.app.asyncio;

import dev.remora.app.output.asyncio.AsyncTextWriter;
import dev.remora.domain.asyncio.AsyncMode;
import dev.remora.domain.asyncio.AsyncSnapshot;
import dev.remora.domain.asyncio.AsyncThread;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The text rendering of a task graph, line for line. */
@Tag("targets")
class AsyncTextWriterTest {

    @Test
    void allTasksAreATreeFromTheTasksNothingAwaits() {
        assertThat(render(SampleGraphs.all())).isEqualTo("""
                Asyncio tasks of PID 123 (Python 3.15.2)

                Thread 7 (4 tasks):
                  └── Task-1 (0x10)
                      │   main (/app/t.py:10)
                      ├── a (0x20)
                      │   │   gather_all (/app/t.py:20)
                      │   └── sh"ared-𐐀 (0x40)
                      │           Event.wait (/usr/lib/python3.15/asyncio/locks.py:213)
                      │           <genexpr> (/app/t.py)
                      └── b (0x30)
                          │   gather_all (/app/t.py:20)
                          └── sh"ared-𐐀 (0x40) (shown above)

                Tasks whose thread has gone (the interpreter's fallback list, 1 task):
                  └── orphan (0x50)
                          Event.wait (/usr/lib/python3.15/asyncio/locks.py:213)

                Threads without asyncio tasks: 8
                """);
    }

    @Test
    void theRunningTaskComesWithItsFramesAndTheTreeOfItsWaiters() {
        assertThat(render(SampleGraphs.running())).isEqualTo("""
                Asyncio running tasks of PID 123 (Python 3.15.2)

                Thread 7 is running task worker (0x40) (most recent call first):
                  spin (/app/t.py:3)
                  worker (/app/t.py:5)
                  awaited by:
                  └── a (0x20)
                      │   gather_all (/app/t.py:20)
                      └── Task-1 (0x10)
                              main (/app/t.py:10)
                """);
    }

    @Test
    void saysSoWhenNoLoopRunsATask() {
        assertThat(render(new AsyncSnapshot(5, SampleGraphs.VERSION, AsyncMode.RUNNING, List.of()))).isEqualTo("""
                Asyncio running tasks of PID 5 (Python 3.15.2)

                No thread is running an asyncio task.
                """);
    }

    @Test
    void tasksThatOnlyWaitOnEachOtherAreStillDrawn() {
        // A cycle of waits has no task that nothing awaits; garbage can look like this.
        AsyncSnapshot cycle = new AsyncSnapshot(5, SampleGraphs.VERSION, AsyncMode.ALL, List.of(
                new AsyncThread(7, List.of(
                        SampleGraphs.task(0x1, "x", List.of(SampleGraphs.MAIN), 0x2),
                        SampleGraphs.task(0x2, "y", List.of(SampleGraphs.MAIN), 0x1)))));
        assertThat(render(cycle)).contains("x (0x1)", "y (0x2)", "(shown above)");
    }

    private static String render(AsyncSnapshot snapshot) {
        StringWriter text = new StringWriter();
        new AsyncTextWriter().write(snapshot, new PrintWriter(text));
        return text.toString().replace(System.lineSeparator(), "\n");
    }
}
