package dev.remora.app.output.dump;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.FrameVariables;
import dev.remora.domain.model.LocalVariable;
import dev.remora.domain.model.VariableKind;
import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.offsets.PythonVersion;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Dumps say how many thread states were left out because their threads had not started yet. */
class DumpWritersTest {

    private static final ThreadStack MAIN = new ThreadStack(100, Set.of(ThreadStatus.MAIN_THREAD), List.of(), Optional.empty());

    private static ProcessStacks stacks(int notStarted) {
        return new ProcessStacks(100, new PythonVersion(3, 15, 2, 0xF, 0), "vmreadv",
                List.of(new InterpreterStacks(0, List.of(MAIN), notStarted)));
    }

    private static String text(ProcessStacks stacks) {
        StringWriter out = new StringWriter();
        // No frame is shown, so no source line is read.
        new TextDumpWriter(new SourceLines(null)).write(stacks, new PrintWriter(out));
        return out.toString();
    }

    private static JsonNode json(ProcessStacks stacks) throws Exception {
        StringWriter out = new StringWriter();
        new JsonDumpWriter().write(stacks, new PrintWriter(out));
        return new ObjectMapper().readTree(out.toString());
    }

    @Test
    void threadStatesNotStartedAreCounted() throws Exception {
        assertThat(text(stacks(2))).contains("(2 thread states not started yet, left out)");
        assertThat(json(stacks(2)).get("interpreters").get(0).get("threads_not_started").asInt()).isEqualTo(2);
    }

    @Test
    void variablesFollowTheirFrameArgumentsFirst() throws Exception {
        FrameInfo frame = new FrameInfo("f", "<string>", SourceLocation.NONE);
        FrameVariables variables = new FrameVariables(List.of(
                new LocalVariable("a", VariableKind.ARGUMENT, "int", "1", 0x10),
                new LocalVariable("c", VariableKind.CELL, "str", "'x'", 0x20),
                new LocalVariable("b", VariableKind.LOCAL, "NoneType", "None", 0x30)), Optional.empty());
        ThreadStack thread = new ThreadStack(100, Set.of(ThreadStatus.MAIN_THREAD), List.of(frame, frame), Optional.empty(),
                List.of(variables, FrameVariables.unreadable("variables unreadable: <unreadable: 0x8 is not mapped>")));
        ProcessStacks stacks = new ProcessStacks(100, new PythonVersion(3, 15, 2, 0xF, 0), "vmreadv",
                List.of(new InterpreterStacks(0, List.of(thread), 0)));
        assertThat(text(stacks)).contains("""
                  f (<string>)
                    Arguments:
                      a = 1
                    Locals:
                      c (cell) = 'x'
                      b = None
                  f (<string>)
                    [variables unreadable: <unreadable: 0x8 is not mapped>]
                """);
        JsonNode frames = json(stacks).get("interpreters").get(0).get("threads").get(0).get("frames");
        assertThat(frames.get(0).get("locals").get(1).toString())
                .isEqualTo("{\"name\":\"c\",\"kind\":\"cell\",\"type\":\"str\",\"repr\":\"'x'\",\"address\":\"0x20\"}");
        assertThat(frames.get(1).get("locals")).isEmpty();
        assertThat(frames.get(1).get("locals_problem").asText()).startsWith("variables unreadable");
    }

    @Test
    void noneNotStartedSaysNothing() throws Exception {
        assertThat(text(stacks(0))).doesNotContain("not started");
        assertThat(json(stacks(0)).get("interpreters").get(0).has("threads_not_started")).isFalse();
    }

    @Test
    void jsonHoldsAnyNameAndTheReasonAStackIsIncomplete() throws Exception {
        String function = "f\"o\\o\u0001\uDC00";
        FrameInfo odd = new FrameInfo(function, "/a/b\n.py", new SourceLocation(3, 4, 5, 6));
        ThreadStack cut = new ThreadStack(101, Set.of(ThreadStatus.HAS_GIL, ThreadStatus.MAIN_THREAD), List.of(odd),
                Optional.of("stopped at 0x1234 \"here\""));
        StringWriter out = new StringWriter();
        new JsonDumpWriter().write(new ProcessStacks(100, new PythonVersion(3, 15, 2, 0xF, 0), "vmreadv",
                List.of(new InterpreterStacks(0, List.of(cut), 0))), new PrintWriter(out));

        assertThat(out.toString()).isEqualTo("{\"pid\":100,\"python_version\":\"3.15.2\",\"backend\":\"vmreadv\","
                + "\"interpreters\":[{\"interpreter_id\":0,\"threads\":["
                + "{\"thread_id\":101,\"status\":[\"has_gil\",\"main_thread\"],"
                + "\"frames\":[{\"function\":\"f\\\"o\\\\o\\u0001\\udc00\",\"file\":\"/a/b\\n.py\","
                + "\"line\":3,\"end_line\":4,\"column\":5,\"end_column\":6}],"
                + "\"incomplete\":\"stopped at 0x1234 \\\"here\\\"\"}]}]}" + System.lineSeparator());
        JsonNode frame = new ObjectMapper().readTree(out.toString()).at("/interpreters/0/threads/0/frames/0");
        assertThat(frame.get("function").asText()).isEqualTo(function);
    }
}
