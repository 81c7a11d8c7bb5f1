package dev.remora.domain.walk;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.FrameVariables;
import dev.remora.domain.model.InterpreterStacks;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.model.ThreadStatus;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Collects one pass over the threads into immutable stacks, grouped by interpreter; with a reader
 * of variables, each Python frame's variables too, read as the frame is met.
 */
final class SnapshotCollector implements StackVisitor {

    /** Reads a frame's variables; absent when they were not asked for. */
    interface VariablesOfFrame {
        FrameVariables read(long frameAddress, long codeAddress);
    }

    private final Optional<VariablesOfFrame> variablesOfFrame;
    private List<FrameVariables> variables;

    private final Map<Long, List<ThreadStack>> byInterpreter = new LinkedHashMap<>();
    private final Map<Long, Integer> notStarted = new LinkedHashMap<>();
    private List<FrameInfo> frames;
    private long interpreterId;
    private long threadId;
    private int status;
    private boolean incomplete;

    SnapshotCollector() {
        this(Optional.empty());
    }

    SnapshotCollector(Optional<VariablesOfFrame> variablesOfFrame) {
        this.variablesOfFrame = variablesOfFrame;
    }

    @Override
    public boolean beginThread(long interpreterId, long threadId, int status) {
        this.interpreterId = interpreterId;
        this.threadId = threadId;
        this.status = status;
        this.frames = new ArrayList<>();
        this.variables = new ArrayList<>();
        return true;
    }

    @Override
    public void frame(FrameInfo frame) {
        frames.add(frame);
        variables.add(FrameVariables.NONE);
    }

    @Override
    public void pythonFrame(FrameInfo frame, long frameAddress, long codeAddress) {
        frames.add(frame);
        variables.add(variablesOfFrame.isPresent() ? variablesOfFrame.get().read(frameAddress, codeAddress) : FrameVariables.NONE);
    }

    @Override
    public void statusAfterWalk(int status, int cpuSamples) {
        this.status = status;
    }

    @Override
    public void endThread(Optional<StackProblem> problem) {
        incomplete |= problem.isPresent();
        byInterpreter.computeIfAbsent(interpreterId, id -> new ArrayList<>())
                .add(new ThreadStack(threadId, ThreadStatus.fromBits(status), frames, problem.map(StackProblem::message),
                        variablesOfFrame.isPresent() ? variables : List.of()));
    }

    /** Records an interpreter even when none of its threads are visited. */
    @Override
    public void beginInterpreter(long id) {
        byInterpreter.computeIfAbsent(id, i -> new ArrayList<>());
        interpreterId = id;
    }

    @Override
    public void threadNotStarted() {
        notStarted.merge(interpreterId, 1, Integer::sum);
    }

    boolean incomplete() {
        return incomplete;
    }

    /** The main interpreter (id 0) first; the target lists them newest first. */
    List<InterpreterStacks> interpreters() {
        return byInterpreter.entrySet().stream()
                .map(e -> new InterpreterStacks(e.getKey(), e.getValue(), notStarted.getOrDefault(e.getKey(), 0)))
                .sorted(Comparator.comparingLong(InterpreterStacks::interpreterId))
                .toList();
    }
}
