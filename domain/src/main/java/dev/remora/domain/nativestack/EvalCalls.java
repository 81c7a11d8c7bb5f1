package dev.remora.domain.nativestack;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;

import java.util.ArrayList;
import java.util.List;

/**
 * Splits a thread's Python frames into the eval-loop calls that run them, innermost first, with an
 * address on the C stack for each call where the version keeps one: what lets C frames and Python
 * frames be merged without knowing the eval loop's name (stripped interpreters have none). Reads the
 * chain once, straight from memory: the process is stopped, or a core.
 */
public final class EvalCalls {

    /** More eval-loop calls than a C stack can hold (each takes a few hundred bytes of it). */
    private static final int MAX_CALLS = 1 << 16;

    private final RemoteMemory memory;
    private final DebugOffsets.Thread thread;
    private final FrameShape shape;
    private final byte[] frame;
    private final byte[] state;

    public EvalCalls(RemoteMemory memory, DebugOffsets offsets) {
        this.memory = memory;
        this.thread = offsets.thread();
        this.shape = FrameShape.of(offsets);
        this.frame = new byte[shape.size()];
        this.state = new byte[thread.readLength()];
    }

    /**
     * The eval-loop calls of the thread whose state is at {@code threadState}, innermost first.
     *
     * @throws MemoryAccessException when the chain cannot be read
     */
    public List<EvalCall> of(long threadState) throws MemoryAccessException {
        memory.read(threadState, state, 0, state.length);
        List<Long> cframes = cframes(threadState);
        long first;
        if (thread.cframe().isPresent()) {
            first = cframes.isEmpty() ? 0 : readLong(cframes.getFirst() + thread.currentFrame());
        } else {
            first = Bytes.getLong(state, (int) thread.currentFrame());
        }
        long base = thread.baseFrame().isPresent() ? Bytes.getLong(state, (int) thread.baseFrame().getAsLong()) : 0;
        List<EvalCall> calls = new ArrayList<>();
        ChainGuard guard = new ChainGuard(FrameShape.MAX_DEPTH, first);
        int shown = 0;
        for (long address = first; address != 0 && address != base && calls.size() < MAX_CALLS; ) {
            memory.read(address, frame, 0, frame.length);
            int owner = shape.owner(frame, 0);
            if (shape.entry(owner)) {
                // 3.12 on: the eval loop keeps this frame among its own locals, on the C stack.
                calls.add(new EvalCall(shown, address));
                shown = 0;
            } else if (shape.untag(shape.rawExecutable(frame, 0)) != 0) {
                shown++;
                if (shape.lastOfEvalCall(frame, 0)) {
                    calls.add(new EvalCall(shown, 0));
                    shown = 0;
                }
            }
            long previous = shape.previous(frame, 0);
            if (previous != 0 && !guard.step(previous)) {
                break;
            }
            address = previous;
        }
        if (shown > 0) {
            calls.add(new EvalCall(shown, 0));
        }
        return withCFrames(calls, cframes);
    }

    /** 3.11 and 3.12: each eval-loop call links a {@code _PyCFrame} of its own into the thread's chain. */
    private List<EvalCall> withCFrames(List<EvalCall> calls, List<Long> cframes) {
        if (cframes.isEmpty() || calls.isEmpty()) {
            return List.copyOf(calls);
        }
        List<EvalCall> anchored = new ArrayList<>(calls.size());
        for (int i = 0; i < calls.size(); i++) {
            EvalCall call = calls.get(i);
            // Counts that differ (a call entering or leaving right now) leave only the innermost sure.
            boolean sure = cframes.size() == calls.size() || i == 0;
            anchored.add(call.anchor() == 0 && sure && i < cframes.size() ? new EvalCall(call.pythonFrames(), cframes.get(i)) : call);
        }
        return List.copyOf(anchored);
    }

    /** The thread's {@code _PyCFrame} chain, innermost first, without the thread state's own root record. */
    private List<Long> cframes(long threadState) throws MemoryAccessException {
        if (thread.cframe().isEmpty()) {
            return List.of();
        }
        DebugOffsets.CFrame layout = thread.cframe().get();
        List<Long> chain = new ArrayList<>();
        long cframe = Bytes.getLong(state, (int) layout.pointer());
        ChainGuard guard = new ChainGuard(MAX_CALLS, cframe);
        while (cframe != 0 && !(cframe >= threadState && cframe < threadState + thread.size())) {
            chain.add(cframe);
            long previous = readLong(cframe + layout.previous());
            if (previous != 0 && !guard.step(previous)) {
                break;
            }
            cframe = previous;
        }
        return chain;
    }

    private long readLong(long address) throws MemoryAccessException {
        byte[] word = new byte[8];
        memory.read(address, word, 0, 8);
        return Bytes.getLong(word, 0);
    }
}
