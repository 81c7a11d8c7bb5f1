package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.memory.StateOrder;
import dev.remora.domain.objects.ObjectReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.testing.DebugOffsetsFixtures;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A 3.14 thread's stack copied while the thread unwinds: the thread state is read first, then the data
 * stack's chunk twice, on a fake target that pops frames (their code cleared) between the two copies.
 * A recursion of microsecond calls is caught so most of the time it is deep, and a proof that wanted
 * its innermost frames the same in both copies read the tick again until it landed shallower.
 */
class UnwindingCopyTest {

    private static final long TSTATE = 0x1000;
    private static final long CHUNK = 0x10_0000;
    private static final long CODE = 0xC0DE_0000L;
    private static final long OTHER_CODE = 0xC0DE_8000L;
    /** Frames pushed one after the other, each 0x100 bytes: the caller at the bottom, three calls above it. */
    private static final long CALLER = CHUNK + 0x100;
    private static final long DEEP_1 = CALLER + 0x100;
    private static final long DEEP_2 = DEEP_1 + 0x100;
    private static final long DEEP_3 = DEEP_2 + 0x100;
    private static final DebugOffsets OFFSETS = offsets();
    private static final FrameShape SHAPE = FrameShape.of(OFFSETS);
    private static final DebugOffsets.Frame FRAME = OFFSETS.frame();
    private static final DebugOffsets.Thread THREAD = OFFSETS.thread();

    private static DebugOffsets offsets() {
        try {
            return DebugOffsetsDecoder.decode(DebugOffsetsFixtures.debugOffsets("3.14"));
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static ScriptedMemory target() {
        ScriptedMemory target = ScriptedMemory.live().zeroFilledBelow(0x7000_0000L);
        target.putLong(TSTATE + THREAD.currentFrame(), DEEP_3);
        target.putLong(TSTATE + THREAD.datastackChunk().getAsLong(), CHUNK);
        target.putLong(TSTATE + THREAD.datastackTop(), DEEP_3 + 0x100);
        target.putLong(TSTATE + THREAD.datastackLimit(), CHUNK + 0x4000);
        frame(target, CALLER, 0, OTHER_CODE);
        frame(target, DEEP_1, CALLER, CODE);
        frame(target, DEEP_2, DEEP_1, CODE);
        frame(target, DEEP_3, DEEP_2, CODE);
        return target;
    }

    private static void frame(ScriptedMemory target, long frame, long caller, long code) {
        target.putLong(frame + FRAME.executable(), code);
        target.putLong(frame + FRAME.previous(), caller);
        target.putLong(frame + FRAME.instrPtr(), code + 0x40);
        target.putByte(frame + FRAME.owner().getAsLong(), OFFSETS.layout().owners().thread());
        // Each frame has made its call: 3.14's return_offset, 0 in a frame just pushed.
        FRAME.returnOffset().ifPresent(at -> target.putByte(frame + at, 4));
    }

    private static void popped(ScriptedMemory target, long frame) {
        target.putLong(frame + FRAME.executable(), 0);
    }

    /** Reads a frame's header into {@code header}. */
    private interface HeaderRead {
        void into(long frame, byte[] header) throws Exception;
    }

    /** The walked frames, innermost first, each header as {@code read} gives it. */
    private static WalkedFrames walked(HeaderRead read, long... frames) throws Exception {
        WalkedFrames walked = new WalkedFrames();
        byte[] header = new byte[SHAPE.size()];
        for (long frame : frames) {
            read.into(frame, header);
            walked.add(frame, SHAPE.previous(header, 0), SHAPE.rawExecutable(header, 0), SHAPE.instrPtr(header, 0),
                    SHAPE.callerLink(SHAPE.owner(header, 0)), SHAPE.callsMade(header, 0));
        }
        return walked;
    }

    /** The proof of a walk over the copy, frame by frame from the innermost, each read as a walk reads it. */
    private static boolean walkProves(StackCopy copy, SnapshotReader reader, long... frames) throws Exception {
        CopiedFrames proof = new CopiedFrames(reader, SHAPE, CopiedFrames.DataStackProof.of(OFFSETS)).over(copy);
        WalkedFrames walked = walked((frame, header) -> assertThat(proof.read(frame, frames[0], header)).as("copied").isTrue(),
                frames);
        CodeObjects codes = new CodeObjects(reader, new ObjectReader(reader, OFFSETS), OFFSETS);
        return proof.proves(walked, codes);
    }

    /** The thread state, the chunk, and the chunk again, with {@code between} run after the first copy. */
    private static StackCopy copyAcross(ScriptedMemory target, SnapshotReader reader, Runnable between) throws Exception {
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        byte[] state = new byte[THREAD.readLength()];
        target.read(TSTATE, state, 0, state.length);
        copy.planFrom(TSTATE, state);
        target.afterRange(1, between);
        assertThat(copy.read(reader)).isTrue();
        return copy;
    }

    @Test
    void theProofPrecondition() {
        assertThat(CopiedFrames.DataStackProof.of(OFFSETS)).isEqualTo(CopiedFrames.DataStackProof.FRAME_SIZES);
    }

    /** Whether a walk from the innermost frame down to the caller is proven over a copy taken across {@code between}. */
    private static boolean provenAcross(java.util.function.Consumer<ScriptedMemory> between) throws Exception {
        ScriptedMemory target = target();
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyAcross(target, reader, () -> between.accept(target));
        return walkProves(copy, reader, DEEP_3, DEEP_2, DEEP_1, CALLER);
    }

    @Test
    void innermostFramesPoppedBetweenTheCopiesAreTakenFromTheFirstUnderACallerBothHold() throws Exception {
        assertThat(provenAcross(target -> {
            popped(target, DEEP_3);
            popped(target, DEEP_2);
        })).isTrue();
    }

    @Test
    void aPoppedFrameUnderAFrameThatStillRunsIsNoUnwinding() throws Exception {
        // The middle frame's slot reads cleared by the second copy while the one above it runs on: two moments.
        assertThat(provenAcross(target -> popped(target, DEEP_2))).isFalse();
    }

    @Test
    void aCallerThatChangedBetweenTheCopiesFailsTheProofUnderPoppedFrames() throws Exception {
        assertThat(provenAcross(target -> {
            popped(target, DEEP_3);
            popped(target, DEEP_2);
            frame(target, DEEP_1, CALLER, OTHER_CODE); // another call in the slot
        })).isFalse();
    }

    /**
     * Whether the walk's frames read the same in both copies, where the innermost returned before the
     * first copy (its code cleared, its last instruction in {@code CODE}) and {@code between} runs after it.
     */
    private static boolean unchangedAcrossAReturn(java.util.function.Consumer<ScriptedMemory> between) throws Exception {
        ScriptedMemory target = target();
        popped(target, DEEP_3);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyAcross(target, reader, () -> between.accept(target));
        CopiedFrames proof = new CopiedFrames(reader, SHAPE, CopiedFrames.DataStackProof.of(OFFSETS)).over(copy);
        // As the first copy holds them, the returned frame's code cleared.
        WalkedFrames walked = walked(copy::frame, DEEP_3, DEEP_2, DEEP_1, CALLER);
        // The code that holds each instruction: CODE's, as frame() writes them.
        return proof.unchangedInSecondCopy(walked, CopiedFrames.InnermostReading.BOTH_COPIES,
                instrPtr -> instrPtr == CODE + 0x40 ? CODE : 0);
    }

    @Test
    void aReturnedFramesSlotTakenAgainBySameFunctionUnderTheSameCallerIsNoChange() throws Exception {
        // The recursion, caught unwinding, enters again at once.
        assertThat(unchangedAcrossAReturn(target -> frame(target, DEEP_3, DEEP_2, CODE))).isTrue();
    }

    @Test
    void aReturnedFramesSlotTakenByAnotherFunctionFailsTheProof() throws Exception {
        assertThat(unchangedAcrossAReturn(target -> frame(target, DEEP_3, DEEP_2, OTHER_CODE))).isFalse();
    }

    @Test
    void aReturnedFramesSlotTakenUnderAnotherCallerFailsTheProof() throws Exception {
        assertThat(unchangedAcrossAReturn(target -> frame(target, DEEP_3, DEEP_1, CODE))).isFalse();
    }
}
