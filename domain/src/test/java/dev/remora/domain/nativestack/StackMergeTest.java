package dev.remora.domain.nativestack;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class StackMergeTest {

    private static final String PYTHON = "/usr/bin/python3.13";
    private static final String LIBC = "/usr/lib/x86_64-linux-gnu/libc.so.6";

    private final StackMerge hiding = new StackMerge(PYTHON, InternalFrames.HIDDEN);
    private final StackMerge showing = new StackMerge(PYTHON, InternalFrames.SHOWN);

    @Test
    void eachEvalLoopCallFoundByItsAnchorStandsForItsPythonFrames() {
        // A callback from qsort: sleep <- [eval] compare <- qsort <- [eval] sort, main.
        List<NativeFrame> c = List.of(
                c(LIBC, "clock_nanosleep", 0x1000, 0x1100),
                c(PYTHON, null, 0x1100, 0x1400),        // eval loop, unnamed (stripped)
                c(LIBC, "qsort_r", 0x1400, 0x1500),
                c(PYTHON, null, 0x1500, 0x1900),        // eval loop
                c(LIBC, "__libc_start_call_main", 0x1900, 0x1a00));
        MixedStack merged = hiding.merge(py("compare", "sort", "main"),
                List.of(new EvalCall(1, 0x1200), new EvalCall(2, 0x1600)), new NativeStack(c, Optional.empty()));
        assertThat(render(merged, py("compare", "sort", "main")))
                .containsExactly("C clock_nanosleep", "py compare", "C qsort_r", "py sort", "py main", "C __libc_start_call_main");
        assertThat(merged.hidden()).isEqualTo(2);
        assertThat(merged.problem()).isEmpty();
    }

    @Test
    void anEvalLoopWithSymbolsIsFoundByNameWhereTheVersionKeepsNoAnchor() {
        List<NativeFrame> c = List.of(
                c(LIBC, "sem_clock_wait", 0x1000, 0x1100),
                c(PYTHON, "PyThread_acquire_lock_timed", 0x1100, 0x1200),
                c(PYTHON, "_PyEval_EvalFrameDefault", 0x1200, 0x1400),
                c(PYTHON, "_PyFunction_Vectorcall", 0x1400, 0x1500),
                c(PYTHON, "_PyEval_EvalFrameDefault", 0x1500, 0x1700));
        MixedStack merged = hiding.merge(py("park", "run"), List.of(new EvalCall(1, 0), new EvalCall(1, 0)),
                new NativeStack(c, Optional.empty()));
        assertThat(render(merged, py("park", "run")))
                .containsExactly("C sem_clock_wait", "C PyThread_acquire_lock_timed", "py park", "py run");
    }

    @Test
    void internalFramesAreShownWhenAskedForAfterThePythonFramesTheyRun() {
        List<NativeFrame> c = List.of(
                c(LIBC, "read", 0x1000, 0x1100),
                c(PYTHON, "_PyEval_EvalFrameDefault", 0x1100, 0x1400));
        MixedStack merged = showing.merge(py("f"), List.of(new EvalCall(1, 0)), new NativeStack(c, Optional.empty()));
        assertThat(render(merged, py("f"))).containsExactly("C read", "py f", "C _PyEval_EvalFrameDefault");
        assertThat(merged.hidden()).isZero();
    }

    @Test
    void callsThatCannotBePlacedLeaveBothSidesAsReadAndSaySo() {
        List<NativeFrame> c = List.of(c(LIBC, "poll", 0x1000, 0x1100), c(PYTHON, null, 0x1100, 0x1400));
        MixedStack merged = hiding.merge(py("f", "g"), List.of(new EvalCall(1, 0x9000), new EvalCall(1, 0x9100)),
                new NativeStack(c, Optional.empty()));
        assertThat(render(merged, py("f", "g"))).containsExactly("C poll", "py f", "py g");
        assertThat(merged.problem()).get().asString().contains("not merged");
    }

    @Test
    void aGcPseudoFrameGoesWithThePythonFrameAfterIt() {
        List<NativeFrame> c = List.of(
                c(PYTHON, "gc_collect_main", 0x1000, 0x1100),
                c(PYTHON, null, 0x1100, 0x1400),
                c(LIBC, "qsort_r", 0x1400, 0x1500),
                c(PYTHON, null, 0x1500, 0x1900));
        List<FrameInfo> python = new ArrayList<>(py("alloc"));
        python.addFirst(PseudoFrames.GC);
        python.addAll(py("outer"));
        MixedStack merged = hiding.merge(python, List.of(new EvalCall(1, 0x1200), new EvalCall(1, 0x1600)),
                new NativeStack(c, Optional.empty()));
        assertThat(render(merged, python)).containsExactly("C gc_collect_main", "py <GC>", "py alloc", "C qsort_r", "py outer");
    }

    @Test
    void pythonFramesBelowWhereTheCWalkEndedComeLastAndTheStackSaysWhy() {
        List<NativeFrame> c = List.of(c(LIBC, "poll", 0x1000, 0x1100), c(PYTHON, null, 0x1100, 0x1400));
        MixedStack merged = hiding.merge(py("f", "g"), List.of(new EvalCall(1, 0x1200), new EvalCall(1, 0x5000)),
                new NativeStack(c, Optional.of("0x0 is in no mapped file")));
        assertThat(render(merged, py("f", "g"))).containsExactly("C poll", "py f", "py g");
        assertThat(merged.problem()).get().asString().contains("no mapped file").doesNotContain("not merged");
    }

    private static NativeFrame c(String path, String symbol, long sp, long cfa) {
        return new NativeFrame(sp + 0x10, sp, cfa, Optional.ofNullable(symbol), 0x10, Optional.of(path.substring(path.lastIndexOf('/') + 1)),
                Optional.of(path), 0);
    }

    private static List<FrameInfo> py(String... names) {
        List<FrameInfo> frames = new ArrayList<>();
        for (String name : names) {
            frames.add(new FrameInfo(name, "t.py", SourceLocation.NONE));
        }
        return frames;
    }

    private static List<String> render(MixedStack merged, List<FrameInfo> python) {
        return merged.entries().stream().map(e -> switch (e) {
            case StackEntry.Python p -> "py " + python.get(p.index()).function();
            case StackEntry.Native n -> "C " + n.frame().symbol().orElse("??");
        }).toList();
    }
}
