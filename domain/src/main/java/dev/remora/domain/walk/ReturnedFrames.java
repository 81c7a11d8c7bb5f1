package dev.remora.domain.walk;

import dev.remora.domain.frames.CallerLink;
import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.offsets.PoppedFrames;

import java.util.Optional;

/**
 * The step after a proven walk whose innermost frames read with their code cleared: they returned
 * between the thread state's moment and the read of their slots (3.14+ clear a returning frame's code
 * reference). The thread ran them at that moment, and a returned frame still points at its last
 * instruction, so the code that holds that instruction names each. Failing such walks and reading
 * again lost the calls that live shortest: a recursion of microsecond calls was never seen at its
 * deepest two levels, which had always returned by the time their slots were copied.
 *
 * <p>The frame each returned one names as its caller must have made a call ({@code return_offset},
 * 0 in a frame just pushed): once the caller returned too, its own caller may have called again into
 * the same slot, and a call of the same size reads the same in both copies. Taking it showed a
 * returned {@code leaf} under a {@code c} that never calls it, in one stack of a thousand on a target
 * that churns through such calls. (The check is here only: {@code __init__}'s shim frame calls it
 * without setting its own {@code return_offset}, so a returned {@code __init__} is read again.)
 */
final class ReturnedFrames {

    static final Optional<StackProblem> RETURNED =
            Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "the current frame returned before it was read"));
    private static final Optional<StackProblem> NOT_ITS_CALLER = Optional.of(StackProblem.of(StackProblem.Kind.MOVED,
            "the caller of a frame that returned before it was read has made no call"));
    private static final Optional<StackProblem> SLOT_REUSED = Optional.of(StackProblem.of(StackProblem.Kind.MOVED,
            "a frame that returned before it was read does not start where its caller's frame ends"));
    /** More frames returned between one moment and a read of their slots than any thread manages. */
    private static final int MAX_RETURNED = 64;

    private final FrameShape shape;
    private final PoppedFrames popped;
    private final CodeObject[] found = new CodeObject[MAX_RETURNED];

    ReturnedFrames(FrameShape shape, PoppedFrames popped) {
        this.shape = shape;
        this.popped = popped;
    }

    /**
     * A walk read frame by frame, each read a moment after the last: a cleared current frame had
     * returned, and the caller's slot may well hold another call by the time it is read, so the walk
     * counts as moved and is read again (as a copy). Held still, a cleared current frame is a return
     * caught halfway, and its callers are the stack.
     */
    WalkedStack unnamed(WalkedStack stack, TargetMotion motion) {
        return returnedWhileRunning(stack, motion) ? stack.ended(RETURNED) : stack;
    }

    private boolean returnedWhileRunning(WalkedStack stack, TargetMotion motion) {
        WalkedFrames frames = stack.frames();
        return motion == TargetMotion.RUNS_ON && stack.problem().isEmpty() && frames.frames() > 0
                && shape.untag(frames.executable(0)) == 0;
    }

    /**
     * A walk over a proven copy: the stack of the thread state's moment, {@code stack} with the
     * innermost frames that returned before they were copied named from their last instruction, or
     * ended as moved when that cannot be told. Held still, as {@link #unnamed}.
     */
    WalkedStack named(WalkedStack stack, TargetMotion motion, CodeObjects codes) {
        if (!returnedWhileRunning(stack, motion)) {
            return stack;
        }
        WalkedFrames frames = stack.frames();
        if (popped != PoppedFrames.CODE_CLEARED) {
            return stack.ended(RETURNED); // a cleared reading of a version that keeps the code: a freed frame
        }
        int returned = 0;
        while (returned < frames.frames() && shape.untag(frames.executable(returned)) == 0 && frames.eventCount(returned) == 0) {
            if (returned == found.length) {
                return stack.ended(RETURNED);
            }
            Optional<CodeObject> code = codes.holding(frames.instrPtr(returned));
            if (code.isEmpty()) {
                return stack.ended(RETURNED); // a code no walk has met yet
            }
            found[returned++] = code.get();
        }
        for (int f = 0; f < returned; f++) {
            if (!endsAtItsCaller(frames, f, returned, codes)) {
                return stack.ended(SLOT_REUSED);
            }
            if (f + 1 < frames.frames() && frames.callsMade(f + 1) == FrameShape.CallsMade.NONE) {
                return stack.ended(NOT_ITS_CALLER);
            }
        }
        for (int f = 0; f < returned; f++) {
            frames.recovered(f, found[f].frameAt(frames.instrPtr(f)), found[f].address());
        }
        stack.forgetOpcode(); // the innermost shown frame is no longer the one the opcode was read from
        return stack;
    }

    /**
     * Whether returned frame {@code f} starts where its caller's frame ends, when the caller is a
     * data-stack frame of known size: frames are pushed one after the other. A caller's slot that holds
     * another call by now (the caller returned too, and its own caller called again) would otherwise show
     * the returned frame under a call that never made it; a call of the same size and code is the same
     * function and shows the same stack.
     */
    private boolean endsAtItsCaller(WalkedFrames frames, int f, int returned, CodeObjects codes) {
        int caller = f + 1;
        if (caller >= frames.frames() || frames.callerLink(caller) != CallerLink.FIXED) {
            return true; // the thread's first frame, or called by a generator (off the data stack)
        }
        // An entry frame on the C stack has no known code: no data-stack neighbour to judge by.
        return frames.startsWhereCallerEnds(f, caller < returned ? found[caller].frameSlots()
                : codes.knownFrameSlots(shape.untag(frames.executable(caller))));
    }
}
