package dev.remora.app.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Checks the harness itself: every provisioned interpreter runs parked_threads.py and records the
 * stacks the script promises, and on 3.15 CPython's own unwinder agrees with those records.
 */
@Tag("targets")
class ParkedTargetSmokeTest {

    static List<TargetInterpreter> targets() {
        return TargetInterpreters.all();
    }

    static Stream<TargetInterpreter> cpythonReferenceTargets() {
        return TargetInterpreters.all().stream().filter(CpythonReference::supports);
    }

    @ParameterizedTest
    @MethodSource("targets")
    void recordsTheStacksTheScriptPromises(TargetInterpreter interpreter) throws IOException {
        try (ParkedTarget target = ParkedThreads.start(interpreter)) {
            ExpectedProcess process = target.expected();
            assertThat(process.pid()).isEqualTo(target.pid());
            assertThat(process.version()).startsWith(interpreter.major() + "." + interpreter.minor() + ".");
            assertThat(process.threads()).extracting(ExpectedThread::name)
                    .containsExactlyInAnyOrderElementsOf(ParkedThreads.THREAD_NAMES);
            assertThat(process.threadIds()).hasSize(ParkedThreads.THREAD_NAMES.size());

            assertThat(process.threadNamed(ParkedThreads.MAIN).functions()).isEqualTo(ParkedThreads.MAIN_STACK);
            assertDeepRecursion(process.threadNamed(ParkedThreads.DEEP_RECURSION), ParkedThreads.DEFAULT_DEPTH);
            assertStartsWith(process, ParkedThreads.CLOSURE, ParkedThreads.named(interpreter, ParkedThreads.CLOSURE_STACK));
            assertStartsWith(process, ParkedThreads.GENERATOR, ParkedThreads.named(interpreter, ParkedThreads.GENERATOR_STACK));
            assertStartsWith(process, ParkedThreads.COROUTINE, ParkedThreads.named(interpreter, ParkedThreads.COROUTINE_STACK));
            assertThat(process.threadNamed(ParkedThreads.NAME_UCS1).top().function()).isEqualTo(ParkedThreads.PARK_UCS1);
            assertThat(process.threadNamed(ParkedThreads.NAME_UCS2).top().function()).isEqualTo(ParkedThreads.PARK_UCS2);
            assertThat(process.threadNamed(ParkedThreads.NAME_UCS4).top().function()).isEqualTo(ParkedThreads.PARK_UCS4);
            assertModule(process.threadNamed(ParkedThreads.FILE_UCS1), ParkedThreads.MODULE_FILE_UCS1);
            assertModule(process.threadNamed(ParkedThreads.FILE_UCS2), ParkedThreads.MODULE_FILE_UCS2);
            assertExec(process.threadNamed(ParkedThreads.EXEC_UCS4));

            assertTopFramesPointAtTheAcquire(process);
        }
    }

    @ParameterizedTest
    @MethodSource("cpythonReferenceTargets")
    void cpythonsUnwinderSeesTheRecordedStacks(TargetInterpreter interpreter) {
        // A shallower deep-recursion thread: CPython's unwinder refuses the default depth (see below).
        try (ParkedTarget target = ParkedThreads.start(interpreter, ParkedThreads.CPYTHON_READABLE_DEPTH)) {
            ExpectedProcess recorded = target.expected();
            ExpectedProcess reference = CpythonReference.stacks(interpreter, target.pid());

            assertThat(reference.pid()).isEqualTo(target.pid());
            assertThat(reference.threadIds()).isEqualTo(recorded.threadIds());
            for (ExpectedThread thread : recorded.threads()) {
                ExpectedThread seen = reference.thread(thread.threadId());
                assertThat(seen.functions()).as("functions of %s", thread.name()).isEqualTo(thread.functions());
                assertThat(seen.lines()).as("lines of %s", thread.name()).isEqualTo(thread.lines());
                // Files, end lines and columns agree as well on 3.15.2, non-ASCII names included.
                assertThat(seen.frames()).as("frames of %s", thread.name()).isEqualTo(thread.frames());
            }
        }
    }

    @ParameterizedTest
    @MethodSource("cpythonReferenceTargets")
    void cpythonsUnwinderRefusesTheDefaultDeepStack(TargetInterpreter interpreter) {
        // A known limit of the reference, not of the harness: RemoteUnwinder stops walking after
        // 1536 frames and fails the whole get_stack_trace() rather than cutting that one thread.
        // If a CPython update lifts this, compare the default target in the test above instead.
        try (ParkedTarget target = ParkedThreads.start(interpreter)) {
            assertThatThrownBy(() -> CpythonReference.stacks(interpreter, target.pid()))
                    .hasMessageContaining("Too many stack frames");
        }
    }

    private static void assertDeepRecursion(ExpectedThread thread, int depth) {
        List<String> functions = thread.functions();
        assertThat(functions).hasSizeGreaterThanOrEqualTo(depth);
        assertThat(functions.getFirst()).isEqualTo(ParkedThreads.PARK);
        assertThat(functions.subList(1, depth + 1)).containsOnly(ParkedThreads.RECURSE);
        assertThat(functions.get(depth + 1)).isEqualTo(ParkedThreads.DEEP_RECURSION_BOTTOM);
        assertThat(Collections.frequency(functions, ParkedThreads.RECURSE)).isEqualTo(depth);
    }

    private static void assertStartsWith(ExpectedProcess process, String threadName, List<String> innermost) {
        assertThat(process.threadNamed(threadName).functions()).as(threadName).startsWith(innermost.toArray(String[]::new));
    }

    private static void assertModule(ExpectedThread thread, String fileName) {
        assertThat(thread.functions()).startsWith(ParkedThreads.MODULE_STACK.toArray(String[]::new));
        assertThat(thread.top().file()).endsWith("/" + fileName);
    }

    private static void assertExec(ExpectedThread thread) {
        assertThat(thread.functions()).startsWith(ParkedThreads.EXEC_STACK.toArray(String[]::new));
        assertThat(thread.frames().subList(0, 2)).extracting(ExpectedFrame::file)
                .containsOnly(ParkedThreads.EXEC_FILE);
    }

    /** The recorded positions are those of the blocking call: the source line at the top frame holds it. */
    private static void assertTopFramesPointAtTheAcquire(ExpectedProcess process) throws IOException {
        List<String> script = scriptLines();
        for (ExpectedThread thread : process.threads()) {
            ExpectedFrame top = thread.top();
            assertThat(top.line()).as("line of %s", thread.name()).isNotNull();
            if (top.file().endsWith("/parked_threads.py")) {
                assertThat(script.get(top.line() - 1)).as("line %d of %s", top.line(), thread.name())
                        .contains("BLOCKER.acquire()");
            }
        }
    }

    private static List<String> scriptLines() throws IOException {
        try (InputStream in = ParkedTargetSmokeTest.class.getClassLoader().getResourceAsStream(ParkedThreads.SCRIPT)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }
}
