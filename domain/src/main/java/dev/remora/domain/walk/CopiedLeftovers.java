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

    /**
     * Drops the innermost frames of a proven copied walk that were popped at its moment.
     *
     * @return false when every frame was: the record named a stack the thread state no longer held
     */
    abstract boolean dropFrom(WalkedStack stack, StackCopy copy, CodeObjects codes) throws MemoryAccessException;

    private static final class None extends CopiedLeftovers {
        @Override
        boolean dropFrom(WalkedStack stack, StackCopy copy, CodeObjects codes) {
            return true;
        }
    }

    private static final class AboveTop extends CopiedLeftovers {
        private final FrameShape shape;

        AboveTop(FrameShape shape) {
            this.shape = shape;
        }

        @Override
        boolean dropFrom(WalkedStack stack, StackCopy copy, CodeObjects codes) throws MemoryAccessException {
            WalkedFrames walked = stack.frames();
            int leftovers = framesAboveTop(walked, copy, codes);
            if (leftovers == 0) {
                return true;
            }
            if (leftovers == walked.frames()) {
                stack.clear();
                return false;
            }
            // The record named a frame the thread had popped by the time of its thread state: the stack
            // then is the rest, whose innermost frame ends at the top (under no <native> mark).
            walked.dropInnermost(leftovers);
            while (walked.frames() > 0 && walked.eventCount(0) > 0 && walked.event(0, 0) == PseudoFrames.NATIVE) {
                walked.dropInnermost(1);
            }
            stack.forgetOpcode();
            return true;
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
