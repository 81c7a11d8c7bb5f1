package dev.remora.domain.nativestack;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Puts a thread's C frames and Python frames in one call order: each eval-loop call in the C stack
 * stands for the Python frames it runs. An eval-loop call is found by name where the interpreter has
 * symbols, and without one by the address it keeps on its own stack frame (its {@code _PyCFrame} or
 * entry frame): the C frame whose stack area holds it is the call. When the two sides cannot be
 * matched, the stack says so and shows both as read, never in a guessed order.
 */
public final class StackMerge {

    private static final String EVAL_LOOP = "_PyEval_EvalFrameDefault";

    private final String interpreterFile;
    private final InternalFrames internal;

    public StackMerge(String interpreterFile, InternalFrames internal) {
        this.interpreterFile = interpreterFile;
        this.internal = internal;
    }

    /**
     * @param python the thread's Python stack as the dump shows it, innermost first (pseudo frames such
     *     as {@code <GC>} go with the Python frame after them)
     * @param calls the thread's eval-loop calls, innermost first
     */
    public MixedStack merge(List<FrameInfo> python, List<EvalCall> calls, NativeStack c) {
        List<NativeFrame> frames = c.frames();
        int[] callAt = evalCallPositions(frames, calls, python, c.incomplete().isPresent());
        List<StackEntry> entries = new ArrayList<>();
        int hidden = 0;
        Optional<String> problem = c.incomplete().map(why -> "C stack incomplete: " + why);
        if (callAt == null) {
            for (NativeFrame frame : frames) {
                if (internal.hides(frame, interpreterFile)) {
                    hidden++;
                } else {
                    entries.add(new StackEntry.Native(frame));
                }
            }
            for (int i = 0; i < python.size(); i++) {
                entries.add(new StackEntry.Python(i));
            }
            String why = unmatched(frames, calls, python);
            return new MixedStack(entries, Optional.of(problem.map(p -> why + "; " + p).orElse(why)), hidden);
        }
        int nextPython = 0;
        int nextCall = 0;
        for (int i = 0; i < frames.size(); i++) {
            NativeFrame frame = frames.get(i);
            if (nextCall < callAt.length && callAt[nextCall] == i) {
                nextPython = addPython(entries, python, nextPython, calls.get(nextCall).pythonFrames());
                nextCall++;
            }
            if (internal.hides(frame, interpreterFile)) {
                hidden++;
            } else {
                entries.add(new StackEntry.Native(frame));
            }
        }
        // Python frames no C frame was found for (the C walk ended early): after all C frames, in order.
        for (; nextPython < python.size(); nextPython++) {
            entries.add(new StackEntry.Python(nextPython));
        }
        return new MixedStack(entries, problem, hidden);
    }

    /** Adds {@code count} Python frames from {@code from}, with the pseudo frames among them; returns where it stopped. */
    private static int addPython(List<StackEntry> entries, List<FrameInfo> python, int from, int count) {
        int i = from;
        for (int added = 0; i < python.size() && added < count; i++) {
            entries.add(new StackEntry.Python(i));
            if (!isPseudo(python.get(i))) {
                added++;
            }
        }
        return i;
    }

    /**
     * For each eval-loop call, the index of its C frame, increasing; null when the calls cannot be
     * placed: counts that differ, or an anchor found in no C frame. Where the C walk ended early, the
     * outer calls it did not reach are left out (their Python frames follow the C frames).
     */
    private int[] evalCallPositions(List<NativeFrame> frames, List<EvalCall> calls, List<FrameInfo> python,
                                    boolean cutShort) {
        int shown = 0;
        for (FrameInfo frame : python) {
            shown += isPseudo(frame) ? 0 : 1;
        }
        int inCalls = 0;
        for (EvalCall call : calls) {
            inCalls += call.pythonFrames();
        }
        if (inCalls != shown) {
            return null;
        }
        List<Integer> evalFrames = new ArrayList<>();
        for (int i = 0; i < frames.size(); i++) {
            if (isEvalLoop(frames.get(i), calls)) {
                evalFrames.add(i);
            }
        }
        int[] at = new int[calls.size()];
        if (evalFrames.size() == calls.size()) {
            for (int k = 0; k < at.length; k++) {
                at[k] = evalFrames.get(k);
            }
            return at;
        }
        // The C walk may have ended before the outer calls, or named no eval loop: each call by its own anchor.
        int last = -1;
        for (int k = 0; k < at.length; k++) {
            int found = containing(frames, calls.get(k).anchor(), last + 1);
            if (found < 0 && cutShort && calls.get(k).anchor() != 0) {
                return Arrays.copyOf(at, k);
            }
            if (found < 0) {
                return null;
            }
            at[k] = last = found;
        }
        return at;
    }

    private static boolean isEvalLoop(NativeFrame frame, List<EvalCall> calls) {
        if (frame.symbol().isPresent() && frame.symbol().get().equals(EVAL_LOOP)) {
            return true;
        }
        for (EvalCall call : calls) {
            if (holds(frame, call.anchor())) {
                return true;
            }
        }
        return false;
    }

    private static int containing(List<NativeFrame> frames, long anchor, int from) {
        for (int i = from; anchor != 0 && i < frames.size(); i++) {
            if (holds(frames.get(i), anchor)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean holds(NativeFrame frame, long address) {
        return address != 0 && Long.compareUnsigned(address, frame.sp()) >= 0 && Long.compareUnsigned(address, frame.cfa()) < 0;
    }

    private static boolean isPseudo(FrameInfo frame) {
        return frame.equals(PseudoFrames.GC) || frame.equals(PseudoFrames.NATIVE);
    }

    private static String unmatched(List<NativeFrame> frames, List<EvalCall> calls, List<FrameInfo> python) {
        long named = frames.stream().filter(f -> isEvalLoop(f, calls)).count();
        return "C and Python frames not merged: %d eval-loop calls found in the C stack, %d entered from C in the Python stack"
                .formatted(named, calls.size());
    }
}
