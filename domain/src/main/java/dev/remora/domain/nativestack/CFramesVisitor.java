package dev.remora.domain.nativestack;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;
import dev.remora.ports.ThreadRegisters;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * One sample of a stopped process with each thread's C frames merged in. While the process is
 * stopped it only takes each thread's registers and stack ({@link NativeUnwinder#capture}) and holds
 * the walk's events; {@link #flush} then unwinds and sends everything on to {@code next}, in order,
 * after the process runs again: a stop that lasted longer where the C stack is deeper would have the
 * target's clock count that code as slower. Every thread is walked; {@code next} still decides, at
 * the flush, which it keeps. A thread without registers (it exited while stopped) goes on with its
 * Python frames alone.
 */
public final class CFramesVisitor implements StackVisitor {

    /** A walk's event other than a frame, to be sent on at the flush. */
    private sealed interface Event {
        record Interpreter(long id) implements Event {}
        record NotStarted() implements Event {}
        record Status(int status, int cpuSamples) implements Event {}
        record Opcode(String name) implements Event {}
        record Thread(Walked walked) implements Event {}
    }

    /** A Python frame as the walk sent it, to be sent on the same way. */
    private record Held(FrameInfo frame, long frameAddress, long codeAddress) {
        static final long NO_ADDRESS = -1;
    }

    /** One thread's walk, held until the flush. */
    private static final class Walked {
        final long interpreterId;
        final long threadId;
        final int status;
        final List<Event> before = new ArrayList<>();
        final List<Held> held = new ArrayList<>();
        final List<FrameInfo> python = new ArrayList<>();
        Optional<CapturedThread> captured = Optional.empty();
        Optional<StackProblem> problem = Optional.empty();

        Walked(long interpreterId, long threadId, int status) {
            this.interpreterId = interpreterId;
            this.threadId = threadId;
            this.status = status;
        }
    }

    private final StackVisitor next;
    private final NativeUnwinder unwinder;
    private final StackMerge merge;
    private final Map<ThreadKey, List<EvalCall>> calls;
    private final LongFunction<Optional<ThreadRegisters>> registers;
    private final List<Event> events = new ArrayList<>();
    private Walked current;

    /**
     * @param calls this sample's eval-loop calls by thread, read while the process is stopped
     * @param registers each stopped thread's registers
     */
    public CFramesVisitor(StackVisitor next, NativeUnwinder unwinder, StackMerge merge, Map<ThreadKey, List<EvalCall>> calls,
                          LongFunction<Optional<ThreadRegisters>> registers) {
        this.next = next;
        this.unwinder = unwinder;
        this.merge = merge;
        this.calls = calls;
        this.registers = registers;
    }

    @Override
    public void beginInterpreter(long interpreterId) {
        events.add(new Event.Interpreter(interpreterId));
    }

    @Override
    public void threadNotStarted() {
        events.add(new Event.NotStarted());
    }

    @Override
    public boolean beginThread(long interpreterId, long threadId, int status) {
        current = new Walked(interpreterId, threadId, status);
        return true;
    }

    @Override
    public void frame(FrameInfo frame) {
        current.held.add(new Held(frame, Held.NO_ADDRESS, Held.NO_ADDRESS));
        current.python.add(frame);
    }

    @Override
    public void pythonFrame(FrameInfo frame, long frameAddress, long codeAddress) {
        current.held.add(new Held(frame, frameAddress, codeAddress));
        current.python.add(frame);
    }

    @Override
    public void statusAfterWalk(int status, int cpuSamples) {
        current.before.add(new Event.Status(status, cpuSamples));
    }

    @Override
    public void opcode(String name) {
        current.before.add(new Event.Opcode(name));
    }

    @Override
    public void endThread(Optional<StackProblem> problem) {
        current.problem = problem;
        current.captured = registers.apply(current.threadId).map(unwinder::capture);
        events.add(new Event.Thread(current));
        current = null;
    }

    /** Sends the sample on, C frames merged in; call once the process runs again. */
    public void flush() {
        for (Event event : events) {
            switch (event) {
                case Event.Interpreter i -> next.beginInterpreter(i.id());
                case Event.NotStarted n -> next.threadNotStarted();
                case Event.Thread t -> send(t.walked());
                case Event.Status s -> next.statusAfterWalk(s.status(), s.cpuSamples());
                case Event.Opcode o -> next.opcode(o.name());
            }
        }
        events.clear();
    }

    private void send(Walked walked) {
        if (!next.beginThread(walked.interpreterId, walked.threadId, walked.status)) {
            return;
        }
        for (Event event : walked.before) {
            switch (event) {
                case Event.Status s -> next.statusAfterWalk(s.status(), s.cpuSamples());
                case Event.Opcode o -> next.opcode(o.name());
                default -> { }
            }
        }
        if (walked.captured.isEmpty()) {
            walked.held.forEach(this::send);
        } else {
            MixedStack mixed = merge.merge(walked.python, calls.getOrDefault(new ThreadKey(walked.interpreterId, walked.threadId), List.of()),
                    unwinder.unwind(walked.captured.get()));
            for (StackEntry entry : mixed.entries()) {
                switch (entry) {
                    case StackEntry.Python p -> send(walked.held.get(p.index()));
                    case StackEntry.Native c -> next.frame(asFrame(c.frame()));
                }
            }
        }
        next.endThread(walked.problem);
    }

    private void send(Held frame) {
        if (frame.frameAddress() == Held.NO_ADDRESS) {
            next.frame(frame.frame());
        } else {
            next.pythonFrame(frame.frame(), frame.frameAddress(), frame.codeAddress());
        }
    }

    /** A C frame as profiles count it: by function where its symbol is known, else by its address in its file. */
    static FrameInfo asFrame(NativeFrame frame) {
        String function = frame.symbol().orElseGet(() -> "0x" + Long.toHexString(frame.path().isPresent() ? frame.offset() : frame.pc()));
        return FrameInfo.ofNative(function, frame.path().orElse("?"), frame.linkAddress());
    }
}
