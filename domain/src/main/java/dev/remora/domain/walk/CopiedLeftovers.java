package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.objects.MalformedObjectException;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

/**
 * Frames a copied walk found above the data stack's top as the thread state had it. CPython 3.11 and
 * 3.12 name the current frame in a record ({@code _PyCFrame}) copied apart from the thread state, and
 * that record can change and change back meanwhile (a recursion that unwinds and comes back): such
 * frames were popped at the moment the sample stands for. Later versions name the current frame in
 * the thread state itself, and 3.10 keeps no data stack: nothing to drop there.
 */
abstract sealed class CopiedLeftovers {

    static CopiedLeftovers of(DebugOffsets offsets, FrameShape shape) {
        return offsets.thread().cframe().isPresent() && offsets.code().frameSize().isPresent()
                ? new AboveTop(shape) : new None();
    }

    /** What the data stack's top at the thread state's moment says of a proven copied walk. */
    enum Verdict {
        /** The stack as walked (less frames popped by then) is the one of that moment. */
        HOLDS,
        /** Every frame walked was popped by then: the record named a stack the thread state no longer held. */
        ALL_POPPED,
        /**
         * The innermost frame on the data stack ends below the top: the thread had called further by
         * then, and the record's reading is older than that moment.
         */
        CALLED_FURTHER
    }

    /** Drops the innermost frames of a proven copied walk that were popped at its moment, and judges the rest. */
    abstract Verdict dropFrom(WalkedStack stack, StackCopy copy, CodeObjects codes) throws MemoryAccessException;

    private static final class None extends CopiedLeftovers {
        @Override
        Verdict dropFrom(WalkedStack stack, StackCopy copy, CodeObjects codes) {
            return Verdict.HOLDS;
        }
    }

    private static final class AboveTop extends CopiedLeftovers {
        private final FrameShape shape;

        AboveTop(FrameShape shape) {
            this.shape = shape;
        }

        @Override
        Verdict dropFrom(WalkedStack stack, StackCopy copy, CodeObjects codes) throws MemoryAccessException {
            WalkedFrames walked = stack.frames();
            int leftovers = framesAboveTop(walked, copy, codes);
            if (leftovers == 0) {
                return calledFurther(walked, copy, codes) ? Verdict.CALLED_FURTHER : Verdict.HOLDS;
            }
            if (leftovers == walked.frames()) {
                stack.clear();
                return Verdict.ALL_POPPED;
            }
            // The record named a frame the thread had popped by the time of its thread state: the stack
            // then is the rest, whose innermost frame ends at the top (under no <native> mark).
            walked.dropInnermost(leftovers);
            while (walked.frames() > 0 && walked.eventCount(0) > 0 && walked.event(0, 0) == PseudoFrames.NATIVE) {
                walked.dropInnermost(1);
            }
            stack.forgetOpcode();
            return calledFurther(walked, copy, codes) ? Verdict.CALLED_FURTHER : Verdict.HOLDS;
        }

        /**
         * Whether the innermost walked frame on the data stack ends below its top: frames are pushed one
         * after the other, so the top is the end of the innermost frame there (a generator's frame, off
         * the data stack, sits above its caller's).
         */
        private boolean calledFurther(WalkedFrames walked, StackCopy copy, CodeObjects codes) throws MemoryAccessException {
            for (int k = 0; k < walked.frames(); k++) {
                long executable = shape.untag(walked.executable(k));
                if (executable == 0 || !copy.onDataStack(walked.address(k))) {
                    continue;
                }
                try {
                    return copy.endsBelowTop(walked.address(k), codes.frameSlots(executable));
                } catch (MalformedObjectException | MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
                    return false; // not a code object met before: not a frame to judge
                }
            }
            return false;
        }

        /** How many innermost walked frames reach above the data stack's top (see {@link StackCopy#fitsBelowTop}). */
        private int framesAboveTop(WalkedFrames walked, StackCopy copy, CodeObjects codes) throws MemoryAccessException {
            int k = 0;
            while (k < walked.frames()) {
                long executable = shape.untag(walked.executable(k));
                try {
                    if (executable == 0 || copy.fitsBelowTop(walked.address(k), codes.frameSlots(executable))) {
                        return k;
                    }
                } catch (MalformedObjectException | MemoryAccessException.Unmapped | MemoryAccessException.Unavailable e) {
                    return k; // not a code object met before: not a frame to judge
                }
                k++;
            }
            return k;
        }
    }
}
