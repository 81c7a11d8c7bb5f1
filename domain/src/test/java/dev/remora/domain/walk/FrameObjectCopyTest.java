package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.memory.StateOrder;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.Test;


import static org.assertj.core.api.Assertions.assertThat;

/**
 * Copies of a 3.10 thread's stack, whose frames are heap objects taken from a free list and given back
 * to it with their code kept, on a fake target that changes between the ranges of a single read: the
 * stack, the thread state, the stack again. A recursion's calls get other objects each time it is made,
 * and a stack that grows during the first copy has its callers copied before they were called.
 */
class FrameObjectCopyTest {

    private static final long TSTATE = 0x1000;
    private static final long CALLER = 0x50_0000;
    private static final long CALLEE = 0x60_0000;
    private static final long OTHER = 0x70_0000;
    /** The next frame object on the free list. */
    private static final long FREE = 0x80_0000;
    private static final long CODE = 0xC0DE_0000L;
    private static final DebugOffsets OFFSETS = offsets();
    private static final FrameShape SHAPE = FrameShape.of(OFFSETS);
    private static final DebugOffsets.Frame FRAME = OFFSETS.frame();
    private static final DebugOffsets.FrameObject STATES = FRAME.frameObject().orElseThrow();
    /** {@code FRAME_RETURNED}: what a freed frame object's state reads. */
    private static final int RETURNED = 1;

    private static DebugOffsets offsets() {
        try {
            return DebugOffsetsDecoder.fromHeaders(new PythonVersion(3, 10, 13, 0xF, 0));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ScriptedMemory target(long current) {
        ScriptedMemory target = ScriptedMemory.live().zeroFilledBelow(0x7000_0000L);
        target.putLong(TSTATE + OFFSETS.thread().currentFrame(), current);
        return target;
    }

    private static void running(ScriptedMemory target, long frame, long caller) {
        target.putLong(frame + FRAME.executable(), CODE);
        target.putLong(frame + FRAME.previous(), caller);
        target.putByte(frame + STATES.state(), STATES.executing());
    }

    /** Given back to the free list: the code kept, the link to the caller now the list's. */
    private static void freed(ScriptedMemory target, long frame, long nextFree) {
        target.putLong(frame + FRAME.executable(), CODE);
        target.putLong(frame + FRAME.previous(), nextFree);
        target.putByte(frame + STATES.state(), RETURNED);
    }

    private static boolean read(StackCopy copy, SnapshotReader reader, ScriptedMemory target) throws Exception {
        byte[] state = new byte[OFFSETS.thread().readLength()];
        target.read(TSTATE, state, 0, state.length);
        copy.planFrom(TSTATE, state);
        return copy.read(reader);
    }

    /** A copy whose plan holds {@code frames}, learned by walks that needed them, the last one first. */
    private static StackCopy copyThatLearned(SnapshotReader reader, ScriptedMemory target, long... frames) throws Exception {
        StackCopy copy = new StackCopy(OFFSETS.thread(), StateOrder.STATE_BETWEEN);
        walkNeeding(copy, reader, target, frames);
        return copy;
    }

    /** One walk over a fresh read of {@code copy} that needs {@code frames}, innermost first. */
    private static void walkNeeding(StackCopy copy, SnapshotReader reader, ScriptedMemory target, long... frames) throws Exception {
        read(copy, reader, target);
        for (long frame : frames) {
            copy.frame(frame, new byte[SHAPE.size()]);
        }
        copy.finishWalk();
    }

    /**
     * A copy that learned the callee and the caller, read again with {@code change} made right after
     * range {@code range} of that read (the caller's first copy is 0, the callee's 1).
     */
    private static StackCopy readChangingAfter(ScriptedMemory target, SnapshotReader reader, int range, Runnable change)
            throws Exception {
        StackCopy copy = copyThatLearned(reader, target, CALLEE, CALLER);
        target.afterRange(range, change);
        assertThat(read(copy, reader, target)).isTrue();
        return copy;
    }

    private static CopiedFrames proofOver(SnapshotReader reader, StackCopy copy) {
        return new CopiedFrames(reader, SHAPE, CopiedFrames.DataStackProof.SECOND_COPY).over(copy);
    }

    @Test
    void aCallerCopiedBeforeItWasCalledIsTakenRunningFromTheSecondCopy() throws Exception {
        ScriptedMemory target = target(0);
        running(target, OTHER, 0);
        freed(target, CALLER, CALLEE);
        freed(target, CALLEE, 0);
        SnapshotReader reader = new SnapshotReader(target);
        // Copied outermost first: after the caller's first copy the thread calls it, and it calls the callee.
        StackCopy copy = readChangingAfter(target, reader, 0, () -> {
            running(target, CALLER, OTHER);
            running(target, CALLEE, CALLER);
            target.putLong(TSTATE + OFFSETS.thread().currentFrame(), CALLEE);
        });
        byte[] header = new byte[SHAPE.size()];
        CopiedFrames frames = proofOver(reader, copy);

        assertThat(copy.current()).isEqualTo(CALLEE);
        assertThat(frames.read(CALLEE, CALLEE, header)).isTrue();
        assertThat(SHAPE.previous(header, 0)).isEqualTo(CALLER);
        assertThat(frames.read(CALLER, CALLEE, header)).isTrue();
        assertThat(SHAPE.mayBeCaller(header, 0)).as("running, from the second copy").isTrue();
        assertThat(SHAPE.previous(header, 0)).isEqualTo(OTHER);
    }

    @Test
    void anInnermostFrameObjectCalledAfterItsFirstCopyIsTakenFromTheSecond() throws Exception {
        ScriptedMemory target = target(CALLER);
        running(target, CALLER, OTHER);
        freed(target, CALLEE, FREE);
        SnapshotReader reader = new SnapshotReader(target);
        // The callee's object, freed when first copied, runs a call by the thread state's read.
        StackCopy copy = readChangingAfter(target, reader, 1, () -> {
            running(target, CALLEE, CALLER);
            target.putLong(TSTATE + OFFSETS.thread().currentFrame(), CALLEE);
        });
        byte[] header = new byte[SHAPE.size()];
        CopiedFrames frames = proofOver(reader, copy);
        copy.frame(CALLEE, header);

        assertThat(SHAPE.freedObject(header, 0)).as("its first copy").isTrue();
        assertThat(frames.innermost(CALLEE, header)).isEqualTo(CopiedFrames.InnermostReading.SECOND_COPY);
        assertThat(SHAPE.previous(header, 0)).isEqualTo(CALLER);
    }

    /** How the innermost of two running frames reads when {@code second} changes it just before its second copy. */
    private static CopiedFrames.InnermostReading innermostWhenSecondCopyReads(java.util.function.Consumer<ScriptedMemory> second)
            throws Exception {
        ScriptedMemory target = target(CALLEE);
        running(target, CALLER, OTHER);
        running(target, CALLEE, CALLER);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = readChangingAfter(target, reader, 2, () -> second.accept(target));
        byte[] header = new byte[SHAPE.size()];
        copy.frame(CALLEE, header);
        return proofOver(reader, copy).innermost(CALLEE, header);
    }

    @Test
    void anInnermostFrameObjectFreedByTheSecondCopyIsTakenFromTheFirstAlone() throws Exception {
        assertThat(innermostWhenSecondCopyReads(target -> freed(target, CALLEE, FREE)))
                .isEqualTo(CopiedFrames.InnermostReading.FIRST_COPY_ONLY);
    }

    @Test
    void anInnermostFrameObjectReadAsGarbageByTheSecondCopyIsLeftToTheProof() throws Exception {
        // Neither running nor finished: a state no frame object has.
        assertThat(innermostWhenSecondCopyReads(target -> target.putByte(CALLEE + STATES.state(), 0x5a)))
                .isEqualTo(CopiedFrames.InnermostReading.BOTH_COPIES);
    }

    @Test
    void aCallerFreedInBothCopiesStaysFreedForTheWalkToReject() throws Exception {
        ScriptedMemory target = target(CALLEE);
        freed(target, CALLER, OTHER);
        running(target, CALLEE, CALLER);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyThatLearned(reader, target, CALLEE, CALLER);
        assertThat(read(copy, reader, target)).isTrue();
        byte[] header = new byte[SHAPE.size()];
        CopiedFrames frames = proofOver(reader, copy);

        assertThat(frames.read(CALLER, CALLEE, header)).isTrue();
        assertThat(SHAPE.freedObject(header, 0)).isTrue();
        assertThat(SHAPE.mayBeCaller(header, 0)).isFalse();
    }

    @Test
    void aRunningFrameObjectIsNoFreedOne() throws Exception {
        ScriptedMemory target = target(0);
        running(target, CALLER, 0);
        freed(target, CALLEE, 0);
        byte[] header = new byte[SHAPE.size()];

        target.read(CALLER, header, 0, header.length);
        assertThat(SHAPE.freedObject(header, 0)).isFalse();
        assertThat(SHAPE.running(header, 0)).isTrue();
        target.read(CALLEE, header, 0, header.length);
        assertThat(SHAPE.freedObject(header, 0)).isTrue();
        assertThat(SHAPE.running(header, 0)).as("its code kept").isFalse();
    }

    @Test
    void theFrameObjectsOfRecentWalksStayInTheCopyThoughTheLastWalkNeededOthers() throws Exception {
        ScriptedMemory target = target(CALLEE);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyThatLearned(reader, target, CALLEE, CALLER);
        walkNeeding(copy, reader, target, OTHER);
        read(copy, reader, target);
        byte[] header = new byte[SHAPE.size()];
        copy.frame(OTHER, header);
        assertThat(copy.missed()).isFalse();
        copy.finishWalk();

        read(copy, reader, target);
        assertThat(copy.frame(OTHER, header)).isTrue();
        assertThat(copy.frame(CALLER, header)).as("kept by a walk that missed nothing").isTrue();
        assertThat(copy.missed()).as("a recursion made again gets other frame objects").isFalse();
    }

    @Test
    void aFrameObjectNoRecentWalkNeededLeavesTheCopy() throws Exception {
        ScriptedMemory target = target(CALLEE);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyThatLearned(reader, target, CALLEE, CALLER);
        for (int walk = 0; walk < StackCopy.RECENT_WALKS; walk++) {
            walkNeeding(copy, reader, target, CALLEE);
        }
        copy.planFrom(TSTATE, new byte[OFFSETS.thread().readLength()]);
        assertThat(StackCopyTest.planned(copy)).as("the caller, needed %d walks ago", StackCopy.RECENT_WALKS).contains(CALLER);
        walkNeeding(copy, reader, target, CALLEE);

        copy.planFrom(TSTATE, new byte[OFFSETS.thread().readLength()]);
        assertThat(StackCopyTest.planned(copy)).as("the caller, needed one walk longer ago").doesNotContain(CALLER).contains(CALLEE);
    }

    @Test
    void theInnermostFrameObjectALastWalkMetIsCopiedNearestTheThreadState() throws Exception {
        ScriptedMemory target = target(CALLEE);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyThatLearned(reader, target, CALLEE, CALLER);
        copy.planFrom(TSTATE, new byte[OFFSETS.thread().readLength()]);

        var ranges = StackCopyTest.planned(copy);
        assertThat(ranges).containsExactly(CALLER, CALLEE, TSTATE, CALLEE, CALLER);
    }

    @Test
    void theLastWalksFrameObjectsAreCopiedNearerTheThreadStateThanOlderWalks() throws Exception {
        ScriptedMemory target = target(OTHER);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyThatLearned(reader, target, CALLEE, CALLER);
        walkNeeding(copy, reader, target, OTHER, CALLER);
        copy.planFrom(TSTATE, new byte[OFFSETS.thread().readLength()]);

        // Copied in that order, the frames the thread is likeliest still in have their two copies nearest in time.
        assertThat(StackCopyTest.planned(copy)).as("the callee, needed one walk before")
                .containsExactly(CALLEE, CALLER, OTHER, TSTATE, OTHER, CALLER, CALLEE);
    }
}
