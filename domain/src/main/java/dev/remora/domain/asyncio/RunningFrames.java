package dev.remora.domain.asyncio;

import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.frames.FrameShape;
import dev.remora.ports.MemoryAccessException;

import java.util.ArrayList;
import java.util.List;

/**
 * A thread's frames from the innermost one out to the running task's own coroutine frame: what the
 * task is doing right now, including plain functions it called. Entry frames carry no code and are
 * skipped, as in a stack dump. The task's frame is recognised by its address: code objects are
 * shared by recursive calls and cannot tell it apart.
 */
final class RunningFrames {

    private final AsyncContext context;
    private final FrameShape shape;
    private final byte[] buffer;

    RunningFrames(AsyncContext context) {
        this.context = context;
        this.shape = FrameShape.of(context.offsets());
        this.buffer = new byte[shape.size()];
    }

    /** @param taskFrame the address of the running task's coroutine frame, where the stack is cut */
    List<LocatedFrame> frames(long interpreter, long threadState, long taskFrame)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        List<LocatedFrame> frames = new ArrayList<>();
        long address = context.reader().readLong(threadState + context.offsets().thread().currentFrame());
        ChainGuard guard = new ChainGuard(FrameShape.MAX_DEPTH, address);
        while (address != 0) {
            context.reader().read(address, buffer, 0, buffer.length);
            int owner = shape.owner(buffer, 0);
            if (!shape.validOwner(owner)) {
                throw new InconsistentGraph("frame at 0x%x has an invalid owner %d".formatted(address, owner));
            }
            long executable = shape.executable(buffer, 0);
            if (!shape.entry(owner) && executable != 0) {
                frames.add(new LocatedFrame(context.codes().frame(interpreter, executable, shape.instrPtr(buffer, 0)),
                        address, executable));
            }
            if (address == taskFrame) {
                return frames;
            }
            address = shape.previous(buffer, 0);
            if (address != 0 && !guard.step(address)) {
                throw new InconsistentGraph("frame chain of thread state 0x%x %s".formatted(threadState,
                        guard.tooLong() ? "is deeper than " + FrameShape.MAX_DEPTH : "loops"));
            }
        }
        // The task is running but not inside its coroutine: the C code of its step runs before the
        // coroutine resumes or after it yielded (scheduling what comes next, say). The whole stack
        // is what the task is doing; CPython gives the same.
        return frames;
    }
}
