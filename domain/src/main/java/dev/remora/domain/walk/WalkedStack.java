package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;

import java.util.Optional;

/**
 * What one walk of a thread's stack found: the frames it read, innermost first, the opcode of the
 * innermost, the frames below the marker it reused, and why it stopped early if it did. A walk that
 * failed still holds the frames it read. Each walker returns its one instance, walk after walk: it
 * holds the last walk's findings until the next.
 */
final class WalkedStack {

    private final WalkedFrames frames = new WalkedFrames();
    private final FrameShape shape;
    private String opcode;
    private MarkedChain tail;
    private Optional<StackProblem> problem = Optional.empty();
    private int tailAt;
    private boolean firstOnThreadStack;
    private boolean endedAtRoot;
    private int opcodeReads;

    WalkedStack(FrameShape shape) {
        this.shape = shape;
    }

    /** Forgets the last walk's findings. */
    void clear() {
        frames.clear();
        opcode = null;
        tail = null;
        tailAt = -1;
        firstOnThreadStack = false;
        endedAtRoot = false;
        opcodeReads = 0;
    }

    /**
     * How the reading of the chain ended, for its proof.
     *
     * @param at where in the marker's chain it met the marker and stopped, or -1
     * @param firstOnData whether the current frame is on the thread's data stack
     * @param atRoot whether it ended at the base frame or at the entry frame under a thread's first call
     * @param readsForOpcode remote reads made for the innermost frame's opcode, not for the walk
     */
    void reading(int at, boolean firstOnData, boolean atRoot, int readsForOpcode) {
        tailAt = at;
        firstOnThreadStack = firstOnData;
        endedAtRoot = atRoot;
        opcodeReads = readsForOpcode;
    }

    int tailAt() {
        return tailAt;
    }

    boolean firstOnThreadStack() {
        return firstOnThreadStack;
    }

    boolean endedAtRoot() {
        return endedAtRoot;
    }

    int opcodeReads() {
        return opcodeReads;
    }

    WalkedFrames frames() {
        return frames;
    }

    void opcode(String name) {
        opcode = name;
    }

    /** The frames below position {@link #tailAt} of {@code chain}, proven unchanged, end the stack. */
    void tail(MarkedChain chain, int at) {
        tail = chain;
        tailAt = at;
    }

    /** Forgets the opcode: the frame it was read from is no longer the innermost. */
    void forgetOpcode() {
        opcode = null;
    }

    /** Ends the walk: {@code problem} says why the stack is not proven, if it is not. */
    WalkedStack ended(Optional<StackProblem> why) {
        problem = why;
        return this;
    }

    /** Why the walk stopped early or could not be proven, if it did. */
    Optional<StackProblem> problem() {
        return problem;
    }

    /** Whether the walk found no frame at all to show (it may have met frames that show nothing). */
    boolean showsNothing() {
        if (tail != null) {
            return false;
        }
        for (int f = 0; f < frames.frames(); f++) {
            if (frames.eventCount(f) > 0) {
                return false;
            }
        }
        return true;
    }

    /** Hands the stack to {@code visitor}, innermost first: its opcode, the frames read, then the reused tail. */
    void emitTo(StackVisitor visitor) {
        if (opcode != null) {
            visitor.opcode(opcode);
        }
        for (int f = 0; f < frames.frames(); f++) {
            for (int k = 0; k < frames.eventCount(f); k++) {
                FrameInfo event = frames.event(f, k);
                if (event == PseudoFrames.NATIVE || event == PseudoFrames.GC) {
                    visitor.frame(event);
                } else {
                    visitor.pythonFrame(event, frames.address(f), shape.untag(frames.shownCode(f)));
                }
            }
        }
        if (tail != null) {
            visitor.tail(tail.tailId(tailAt), tail.events(), tail.eventsBelow(tailAt));
        }
    }
}
