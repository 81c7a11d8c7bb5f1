package dev.remora.app.dump;

import com.fasterxml.jackson.databind.JsonNode;
import dev.remora.app.testing.CpythonReference;
import dev.remora.app.testing.ExpectedProcess;
import dev.remora.app.testing.ExpectedThread;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ParkedThreads;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Dumps real interpreters whose threads are parked at known places and compares the result, frame by
 * frame and position by position, with the stacks the targets recorded of themselves.
 */
@Tag("targets")
class LiveDumpTest {

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    static List<TargetInterpreter> interpretersWithCpythonUnwinder() {
        List<TargetInterpreter> found = interpreters().stream().filter(CpythonReference::supports).toList();
        if (found.isEmpty()) {
            throw new IllegalStateException("no CPython 3.15 target provisioned: its unwinder is the reference");
        }
        return found;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void everyThreadEqualsWhatTheTargetRecordedThroughBothBackends(TargetInterpreter python) {
        try (ParkedTarget target = ParkedThreads.start(python)) {
            ExpectedProcess expected = target.expected();
            for (String backend : List.of("vmreadv", "procmem")) {
                RemoraCli run = RemoraCli.run("dump", "-a", "--format", "json", "--backend", backend, target.pid());
                assertThat(run.exitCode()).as(run.err()).isZero();
                DumpJson dump = DumpJson.parse(run.out());
                assertThat(dump.root().get("pid").asLong()).isEqualTo(target.pid());
                assertThat(dump.root().get("python_version").asText()).isEqualTo(expected.version());
                assertThat(dump.root().get("backend").asText()).isEqualTo(backend);

                Map<Long, JsonNode> threads = dump.threads();
                assertThat(threads.keySet()).as("thread ids via %s", backend).isEqualTo(expected.threadIds());
                for (ExpectedThread want : expected.threads()) {
                    JsonNode got = threads.get(want.threadId());
                    assertThat(DumpJson.frames(got)).as("thread %s via %s", want.name(), backend)
                            .containsExactlyElementsOf(want.frames());
                    assertThat(got.has("incomplete")).as("thread %s marked incomplete", want.name()).isFalse();
                    assertThat(got.path("name").asText()).as("the threading name of thread %d", want.threadId())
                            .isEqualTo(want.name());
                }
                ExpectedThread deep = expected.threadNamed(ParkedThreads.DEEP_RECURSION);
                assertThat(deep.frames()).hasSizeGreaterThan(ParkedThreads.DEFAULT_DEPTH);
                assertThat(DumpJson.status(threads.get(target.pid()))).contains("main_thread");
            }
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void withoutAllThreadsOnlyTheMainThreadIsDumped(TargetInterpreter python) {
        try (ParkedTarget target = ParkedThreads.start(python)) {
            RemoraCli run = RemoraCli.run("dump", "--format", "json", target.pid());
            assertThat(run.exitCode()).as(run.err()).isZero();
            Map<Long, JsonNode> threads = DumpJson.parse(run.out()).threads();

            assertThat(threads.keySet()).containsExactly(target.pid());
            JsonNode main = threads.get(target.pid());
            assertThat(DumpJson.status(main)).contains("main_thread").doesNotContain("on_cpu");
            assertThat(DumpJson.frames(main)).containsExactlyElementsOf(target.expected().thread(target.pid()).frames());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void textDumpShowsThreadsFramesAndSourceLines(TargetInterpreter python) {
        try (ParkedTarget target = ParkedThreads.start(python)) {
            ExpectedThread main = target.expected().thread(target.pid());
            RemoraCli run = RemoraCli.run("dump", "-a", target.pid());
            assertThat(run.exitCode()).as(run.err()).isZero();

            String top = "  main_park (%s:%d)".formatted(main.top().file(), main.top().line());
            assertThat(run.out())
                    .startsWith("Stack dump for PID %d (Python %s, backend vmreadv)".formatted(target.pid(), target.expected().version()))
                    .contains("Thread %d \"MainThread\" (main thread, idle; most recent call first):%n%s%n      ".formatted(target.pid(), top))
                    .contains("  " + ParkedThreads.PARK_UCS2 + " (")
                    .contains(ParkedThreads.EXEC_FILE);
            String afterTop = run.out().substring(run.out().indexOf(top) + top.length()).lines().skip(1).findFirst().orElseThrow();
            assertThat(afterTop.strip()).as("source line under main_park").contains("acquire");
            assertThat(run.out().lines().filter(l -> l.startsWith("Thread "))).hasSize(target.expected().threads().size());
        }
    }

    /** CPython 3.15's own unwinder reads the same process; it refuses stacks over 1536 frames. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("interpretersWithCpythonUnwinder")
    void matchesCpythonsOwnUnwinder(TargetInterpreter python) {
        try (ParkedTarget target = ParkedThreads.start(python, ParkedThreads.CPYTHON_READABLE_DEPTH)) {
            ExpectedProcess cpython = CpythonReference.stacks(python, target.pid());
            RemoraCli run = RemoraCli.run("dump", "-a", "--format", "json", target.pid());
            assertThat(run.exitCode()).as(run.err()).isZero();
            Map<Long, JsonNode> ours = DumpJson.parse(run.out()).threads();

            assertThat(ours.keySet()).isEqualTo(cpython.threadIds());
            for (ExpectedThread theirs : cpython.threads()) {
                assertThat(DumpJson.frames(ours.get(theirs.threadId()))).containsExactlyElementsOf(theirs.frames());
            }
        }
    }
}
