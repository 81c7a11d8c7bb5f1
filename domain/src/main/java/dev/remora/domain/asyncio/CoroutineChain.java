package dev.remora.domain.asyncio;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.ChainGuard;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.offsets.GeneratorStates;
import dev.remora.domain.offsets.VersionLayout;
import dev.remora.ports.MemoryAccessException;

import java.util.ArrayList;
import java.util.List;

/**
 * The frames of a task's coroutine and of what it awaits: each coroutine suspended in {@code await}
 * keeps the awaited object on its value stack, and when that is itself a coroutine (or generator)
 * its frame follows. The chain ends at a coroutine that is running or merely suspended, or at an
 * awaited object that is not a coroutine (a future, say).
 */
final class CoroutineChain {

    /** Deeper than any real await chain; a longer one is garbage. */
    static final int MAX_DEPTH = 1 << 14;
    /** How far a generator's value stack can lie beyond its frame header. */
    private static final long MAX_STACK_SPAN = 1 << 20;

    private final AsyncContext context;
    private final TypeFacts types;
    private final DebugOffsets.Generator gen;
    private final DebugOffsets.Frame frame;
    private final VersionLayout layout;
    private final FrameShape shape;
    private final GeneratorStates states;
    private final int awaitedDepth;
    private final byte[] buffer;

    CoroutineChain(AsyncContext context, TypeFacts types) {
        this.context = context;
        this.types = types;
        this.gen = context.generator();
        this.frame = context.offsets().frame();
        this.shape = FrameShape.of(context.offsets());
        this.layout = context.offsets().layout();
        this.states = layout.generatorStates().orElseThrow();
        this.awaitedDepth = layout.awaitedStackDepth().orElseThrow();
        this.buffer = new byte[(int) gen.size()];
    }

    /**
     * The frames of {@code coro} and the coroutines it awaits, innermost first; empty when
     * {@code coro} is not one of CPython's coroutines or generators (a Cython coroutine, say).
     */
    List<LocatedFrame> frames(long interpreter, long coro)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        List<LocatedFrame> outermostFirst = new ArrayList<>();
        if (coro == 0 || !types.isGeneratorLike(types.typeOf(coro))) {
            return outermostFirst;
        }
        ChainGuard guard = new ChainGuard(MAX_DEPTH, coro);
        for (long current = coro; current != 0; ) {
            current = step(interpreter, current, outermostFirst);
            if (current != 0 && !guard.step(current)) {
                throw new InconsistentGraph("await chain from 0x%x %s".formatted(coro,
                        guard.tooLong() ? "is deeper than " + MAX_DEPTH : "loops"));
            }
        }
        return outermostFirst.reversed();
    }

    /** Adds the frame of the generator at {@code address}; returns the coroutine it awaits, or 0. */
    private long step(long interpreter, long address, List<LocatedFrame> frames)
            throws MemoryAccessException, MalformedObjectException, InconsistentGraph {
        context.reader().read(address, buffer, 0, buffer.length);
        int state = buffer[(int) gen.frameState()];
        if (!states.isValid(state)) {
            throw new InconsistentGraph("coroutine at 0x%x has an invalid frame state %d".formatted(address, state));
        }
        if (states.cleared(state)) {
            return 0;
        }
        int iframe = (int) gen.iframe();
        int owner = shape.owner(buffer, iframe);
        if (!shape.ownedByGenerator(owner)) {
            throw new InconsistentGraph("coroutine at 0x%x does not own its frame (owner %d)".formatted(address, owner));
        }
        long executable = shape.executable(buffer, iframe);
        if (executable == 0) {
            return 0;
        }
        frames.add(new LocatedFrame(context.codes().frame(interpreter, executable, shape.instrPtr(buffer, iframe)),
                address + iframe, executable));
        if (!states.awaiting(state)) {
            return 0;
        }
        long awaited = awaitedObject(address, Bytes.getLong(buffer, iframe + context.stackPointer()));
        // Only another coroutine or generator has a frame to show; a future or an iterator ends the chain.
        return awaited != 0 && types.isGeneratorLike(types.typeOf(awaited)) ? awaited : 0;
    }

    /** The object a suspended coroutine awaits: a slot below the top of its value stack. */
    private long awaitedObject(long address, long stackPointer) throws MemoryAccessException, InconsistentGraph {
        if (stackPointer == 0) {
            return 0;
        }
        long stackBase = address + gen.iframe() + frame.localsPlus();
        long slot = stackPointer - 8L * awaitedDepth;
        if ((stackPointer & 7) != 0 || slot < stackBase || slot - stackBase > MAX_STACK_SPAN) {
            throw new InconsistentGraph("coroutine at 0x%x has a stack pointer 0x%x outside its frame"
                    .formatted(address, stackPointer));
        }
        long awaited = layout.untagStackRef(context.reader().readLong(slot));
        if (awaited != 0 && !AsyncContext.plausiblePointer(awaited)) {
            throw new InconsistentGraph("coroutine at 0x%x awaits a bad pointer 0x%x".formatted(address, awaited));
        }
        return awaited;
    }
}
