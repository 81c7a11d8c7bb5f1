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
 * Passes one sample of a stopped process on to {@code next} with each thread's C frames merged in:
 * a thread's Python frames are held until its walk ends, then sent with its C frames in call order.
 * A thread without registers (it exited while stopped) goes on with its Python frames alone.
 */
public final class CFramesVisitor implements StackVisitor {

    /** A Python frame as the walk sent it, to be sent on the same way. */
    private record Held(FrameInfo frame, long frameAddress, long codeAddress) {
        static final long NO_ADDRESS = -1;
    }

    private final StackVisitor next;
    private final NativeUnwinder unwinder;
    private final StackMerge merge;
    private final Map<Long, List<EvalCall>> calls;
    private final LongFunction<Optional<ThreadRegisters>> registers;
    private final List<Held> held = new ArrayList<>();
    private final List<FrameInfo> python = new ArrayList<>();
    private long thread;

    /**
     * @param calls this sample's eval-loop calls by thread, read while the process is stopped
     * @param registers each stopped thread's registers
     */
    public CFramesVisitor(StackVisitor next, NativeUnwinder unwinder, StackMerge merge, Map<Long, List<EvalCall>> calls,
                          LongFunction<Optional<ThreadRegisters>> registers) {
        this.next = next;
        this.unwinder = unwinder;
        this.merge = merge;
        this.calls = calls;
        this.registers = registers;
    }

    @Override
    public void beginInterpreter(long interpreterId) {
        next.beginInterpreter(interpreterId);
    }

    @Override
    public void threadNotStarted() {
        next.threadNotStarted();
    }

    @Override
    public boolean beginThread(long interpreterId, long threadId, int status) {
        thread = threadId;
        held.clear();
        python.clear();
        return next.beginThread(interpreterId, threadId, status);
    }

    @Override
    public void frame(FrameInfo frame) {
        held.add(new Held(frame, Held.NO_ADDRESS, Held.NO_ADDRESS));
        python.add(frame);
    }

    @Override
    public void pythonFrame(FrameInfo frame, long frameAddress, long codeAddress) {
        held.add(new Held(frame, frameAddress, codeAddress));
        python.add(frame);
    }

    @Override
    public void statusAfterWalk(int status, int cpuSamples) {
        next.statusAfterWalk(status, cpuSamples);
    }

    @Override
    public void opcode(String name) {
        next.opcode(name);
    }

    @Override
    public void endThread(Optional<StackProblem> problem) {
        Optional<ThreadRegisters> regs = registers.apply(thread);
        if (regs.isEmpty()) {
            held.forEach(this::send);
        } else {
            MixedStack mixed = merge.merge(python, calls.getOrDefault(thread, List.of()), unwinder.unwind(regs.get()));
            for (StackEntry entry : mixed.entries()) {
                switch (entry) {
                    case StackEntry.Python p -> send(held.get(p.index()));
                    case StackEntry.Native c -> next.frame(asFrame(c.frame()));
                }
            }
        }
        next.endThread(problem);
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
        return FrameInfo.ofNative(function, frame.path().orElse("?"));
    }
}
