package dev.remora.domain.walk;

import dev.remora.domain.frames.FrameShape;
import dev.remora.domain.frames.InterpreterFrames;
import dev.remora.domain.frames.CallerLink;
import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.memory.StateOrder;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.PythonVersion;
import dev.remora.domain.offsets.VersionLayout;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one-read copy of a thread's stack, on a fake target that changes its memory between the ranges
 * of a single read, as a running thread does while the kernel copies them in order: the two copies
 * of the thread state must show the change, frames must come from the copy, and what a walk needed
 * outside the chunk must be planned into the next read.
 */
class StackCopyTest {

    private static final long TSTATE = 0x1000;
    private static final long CHUNK = 0x10_0000;
    private static final long TOP = CHUNK + 0x400;
    private static final long HEAP_FRAME = 0x50_0000;
    private static final int FRAME_SIZE = 80;
    /** executable at 0, previous at 8, instr_ptr at 56 */
    private static final DebugOffsets.Frame FRAME = new DebugOffsets.Frame(FRAME_SIZE, 8, 0, 56, OptionalLong.of(70), 80,
            OptionalLong.empty(), OptionalLong.empty(), Optional.empty(), OptionalLong.empty());
    /** 3.13's frames: no tag bits on the code reference. */
    private static final FrameShape SHAPE = new InterpreterFrames(FRAME,
            VersionLayout.forVersion(new PythonVersion(3, 13, 0, 0xF, 0)).orElseThrow());
    /** prev 0, next 8, current frame 16, native id 24, data stack chunk, top and limit 32-55, interp 56. */
    private static final DebugOffsets.Thread THREAD = new DebugOffsets.Thread(256, 0, 8, 56, 16, Optional.empty(), OptionalLong.empty(), 64,
            OptionalLong.of(24), OptionalLong.of(32), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(),
            OptionalLong.empty(), OptionalLong.empty(), 64);

    /** The copy's proof, over the copy as last read. */
    private static CopiedFrames proof(StackCopy copy) {
        return new CopiedFrames(null, SHAPE, CopiedFrames.DataStackProof.SECOND_COPY).over(copy);
    }

    private static ScriptedMemory target(long current) {
        // Everything below the heap's end reads (zeros where nothing was put); above it nothing is mapped.
        ScriptedMemory target = ScriptedMemory.live().zeroFilledBelow(0x7000_0000L);
        target.putLong(TSTATE + THREAD.currentFrame(), current);
        target.putLong(TSTATE + THREAD.datastackChunk().getAsLong(), CHUNK);
        target.putLong(TSTATE + THREAD.datastackTop(), TOP);
        target.putLong(TSTATE + THREAD.datastackLimit(), CHUNK + 0x4000);
        return target;
    }

    private static byte[] state(ScriptedMemory target) throws MemoryAccessException {
        byte[] state = new byte[THREAD.readLength()];
        target.read(TSTATE, state, 0, state.length);
        return state;
    }

    private static boolean read(StackCopy copy, SnapshotReader reader, ScriptedMemory target) throws MemoryAccessException {
        copy.planFrom(TSTATE, state(target));
        return copy.read(reader);
    }

    @Test
    void aPlannedCopyRidesAlongWithTheNextBatch() throws Exception {
        long frame = CHUNK + 0x100;
        ScriptedMemory target = target(frame);
        target.putLong(frame, 0xAAAA);
        SnapshotReader reader = new SnapshotReader(target, StateOrder.STATE_FIRST);
        reader.reset();
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        copy.planFrom(TSTATE, state(target));
        reader.ride(copy);

        reader.reset();
        assertThat(copy.rodeAlong(reader)).isTrue();
        assertThat(copy.current()).isEqualTo(frame);
        int reads = target.batchedReads();
        assertThat(copy.read(reader)).isTrue();
        assertThat(target.batchedReads()).as("no read of its own").isEqualTo(reads);
        byte[] header = new byte[FRAME_SIZE];
        assertThat(copy.frame(frame, header)).isTrue();
        assertThat(Bytes.getLong(header, 0)).isEqualTo(0xAAAA);

        copy.planFrom(TSTATE, state(target));
        reader.ride(copy);
        reader.reset();
        assertThat(copy.rodeAlong(reader)).isTrue();
        reader.reset();
        assertThat(copy.rodeAlong(reader)).as("only in the snapshot whose batch it rode along with").isFalse();
    }

    /** The frames as a walk reads them from the copy's first copy: executable at 0, previous at 8. */
    private static WalkedFrames walk(StackCopy copy, long... frames) {
        CallerLink[] links = new CallerLink[frames.length];
        java.util.Arrays.fill(links, CallerLink.FIXED);
        return walk(copy, frames, links);
    }

    @Test
    void aFrameReplacedDuringTheReadDiffersInTheSecondCopy() throws Exception {
        long caller = CHUNK + 0x100, callee = CHUNK + 0x200;
        ScriptedMemory target = target(callee);
        target.putLong(caller, 0xAAAA);
        target.putLong(callee + 8, caller);
        // The caller returns and another call takes its place between the two copies.
        target.afterRange(1, () -> target.putLong(caller, 0xBBBB));
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();
        assertThat(target.batchedReads()).as("thread state, stack and stack again in one read").isEqualTo(1);

        WalkedFrames walked = walk(copy, callee, caller);

        assertThat(copy.current()).isEqualTo(callee);
        assertThat(walked.executable(1)).as("the first copy").isEqualTo(0xAAAA);
        assertThat(proof(copy).unchangedInSecondCopy(walked, CopiedFrames.InnermostReading.BOTH_COPIES))
                .as("the replaced caller is caught").isFalse();
    }

    /** The frames as {@link #walk} reads them, each with its own link to its caller. */
    private static WalkedFrames walk(StackCopy copy, long[] frames, CallerLink... links) {
        WalkedFrames walked = new WalkedFrames();
        byte[] header = new byte[FRAME_SIZE];
        for (int i = 0; i < frames.length; i++) {
            assertThat(copy.frame(frames[i], header)).isTrue();
            walked.add(frames[i], Bytes.getLong(header, 8), Bytes.getLong(header, 0), 0, links[i], FrameShape.CallsMade.UNKNOWN);
        }
        return walked;
    }

    /** A copy of {@code target} that holds the heap frame among its extras (learned from a first walk). */
    private static StackCopy copyHoldingHeapFrame(SnapshotReader reader, ScriptedMemory target) throws Exception {
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        read(copy, reader, target);
        copy.frame(HEAP_FRAME, new byte[FRAME_SIZE]);
        copy.finishWalk();
        return copy;
    }

    /** The ranges the copy's next read is planned over, as start addresses. */
    static List<Long> planned(StackCopy copy) {
        List<Long> starts = new ArrayList<>();
        for (int r = 0; r < copy.ranges(); r++) {
            starts.add(copy.start(r));
        }
        return starts;
    }

    @Test
    void aFrameLinkIntoTheLowestPagesIsNoRangeForTheNextCopy() throws Exception {
        ScriptedMemory target = target(CHUNK + 0x100);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        read(copy, reader, target);
        copy.finishWalk();
        copy.plan(TSTATE, state(target));
        List<Long> without = planned(copy);
        read(copy, reader, target);

        assertThat(copy.frame(1, new byte[FRAME_SIZE])).as("a link read before it was written").isFalse();
        copy.finishWalk();
        copy.plan(TSTATE, state(target));

        assertThat(planned(copy)).isEqualTo(without);
    }

    @Test
    void aRangeThatIsGoneLeavesTheNextCopyWithTheOthersItLearned() throws Exception {
        long gone = 0x7100_0000L; // above the fake's mapped memory
        ScriptedMemory target = target(CHUNK + 0x100);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        read(copy, reader, target);
        copy.frame(HEAP_FRAME, new byte[FRAME_SIZE]);
        copy.frame(gone, new byte[FRAME_SIZE]);
        copy.finishWalk();
        copy.plan(TSTATE, state(target));
        assertThat(planned(copy)).contains(HEAP_FRAME, gone);

        assertThat(copy.read(reader)).as("a range is gone").isFalse();
        copy.plan(TSTATE, state(target));

        assertThat(planned(copy)).contains(HEAP_FRAME).doesNotContain(gone);
        assertThat(copy.read(reader)).isTrue();
    }

    @Test
    void aGeneratorThatYieldsBetweenTheCopiesLeavesTheStackProven() throws Exception {
        // A tiny function called from a generator expression: the function at the top of the data stack,
        // the generator's frame on the heap, the caller below. The generator yields (its link cleared)
        // after its first copy.
        long caller = CHUNK + 0x100, tiny = CHUNK + 0x200;
        ScriptedMemory target = target(tiny);
        target.putLong(caller, 0xAAAA);
        target.putLong(HEAP_FRAME, 0xCCCC);
        target.putLong(HEAP_FRAME + 8, caller);
        target.putLong(tiny, 0xDDDD);
        target.putLong(tiny + 8, HEAP_FRAME);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyHoldingHeapFrame(reader, target);
        target.afterRange(1, () -> target.putLong(HEAP_FRAME + 8, 0)); // the heap frame's first copy comes first

        assertThat(read(copy, reader, target)).isTrue();
        long[] frames = {tiny, HEAP_FRAME, caller};

        assertThat(proof(copy).unchangedInSecondCopy(walk(copy, frames, CallerLink.FIXED, CallerLink.RESUMABLE, CallerLink.FIXED),
                CopiedFrames.InnermostReading.BOTH_COPIES)).as("a generator's cleared link: it yielded since").isTrue();
        assertThat(proof(copy).unchangedInSecondCopy(walk(copy, frames, CallerLink.FIXED, CallerLink.FIXED, CallerLink.FIXED),
                CopiedFrames.InnermostReading.BOTH_COPIES)).as("any other frame's: popped").isFalse();
    }

    @Test
    void aGeneratorSuspendedInTheFirstCopyIsReadFromTheSecond() throws Exception {
        long caller = CHUNK + 0x100;
        ScriptedMemory target = target(CHUNK + 0x200);
        target.putLong(HEAP_FRAME, 0xCCCC);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyHoldingHeapFrame(reader, target);
        // Suspended when first copied, though the thread state, read before, named a frame above it;
        // resumed again by the second copy.
        target.afterRange(1, () -> target.putLong(HEAP_FRAME + 8, caller));
        assertThat(read(copy, reader, target)).isTrue();
        byte[] header = new byte[FRAME_SIZE];
        assertThat(copy.frame(HEAP_FRAME, header)).isTrue();
        assertThat(Bytes.getLong(header, 8)).as("first copy: suspended").isZero();

        assertThat(proof(copy).resumedInSecondCopy(HEAP_FRAME, header)).isTrue();
        assertThat(Bytes.getLong(header, 8)).isEqualTo(caller);
    }

    @Test
    void anotherCodeInTheSecondCopyIsNoResumedGenerator() throws Exception {
        ScriptedMemory target = target(CHUNK + 0x200);
        target.putLong(HEAP_FRAME, 0xCCCC);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = copyHoldingHeapFrame(reader, target);
        target.afterRange(1, () -> {
            target.putLong(HEAP_FRAME, 0xEEEE);
            target.putLong(HEAP_FRAME + 8, CHUNK + 0x100);
        });
        assertThat(read(copy, reader, target)).isTrue();
        byte[] header = new byte[FRAME_SIZE];
        copy.frame(HEAP_FRAME, header);

        assertThat(proof(copy).resumedInSecondCopy(HEAP_FRAME, header)).isFalse();
        assertThat(Bytes.getLong(header, 0)).as("the first copy kept").isEqualTo(0xCCCC);
    }

    @Test
    void anInnermostFrameThatReturnedBeforeTheFirstCopyIsTakenFromACallInItsSlotByTheSecond() throws Exception {
        long caller = CHUNK + 0x100, tiny = CHUNK + 0x200;
        ScriptedMemory target = target(tiny);
        target.putLong(caller, 0xAAAA);
        // The named frame returned (its code cleared) before the first copy; the next call of the loop
        // lands in its slot before the second.
        target.afterRange(1, () -> {
            target.putLong(tiny, 0xDDDD);
            target.putLong(tiny + 8, caller);
        });
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();
        byte[] header = new byte[FRAME_SIZE];
        copy.frame(tiny, header);

        assertThat(proof(copy).innermost(tiny, header)).isEqualTo(CopiedFrames.InnermostReading.SECOND_COPY);
        assertThat(Bytes.getLong(header, 0)).isEqualTo(0xDDDD);
        assertThat(Bytes.getLong(header, 8)).isEqualTo(caller);
    }

    @Test
    void aFrameCalledFromCNotYetLinkedInTheFirstCopyIsTakenLinkedFromTheSecond() throws Exception {
        long entry = HEAP_FRAME, tiny = CHUNK + 0x200;
        ScriptedMemory target = target(tiny);
        // C code called the function again: its frame is pushed (code set, owned by the thread) but not yet
        // linked to the entry frame under it; the eval loop links it before the second copy.
        target.putLong(tiny, 0xDDDD);
        target.afterRange(1, () -> target.putLong(tiny + 8, entry));
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();
        byte[] header = new byte[FRAME_SIZE];
        copy.frame(tiny, header);
        assertThat(Bytes.getLong(header, 8)).as("first copied unlinked").isZero();

        assertThat(proof(copy).innermost(tiny, header)).isEqualTo(CopiedFrames.InnermostReading.SECOND_COPY);
        assertThat(Bytes.getLong(header, 8)).as("linked, from the second copy").isEqualTo(entry);
    }

    @Test
    void anUnlinkedFrameOfAnotherCodeInTheSecondCopyIsLeftAsFirstCopied() throws Exception {
        long tiny = CHUNK + 0x200;
        ScriptedMemory target = target(tiny);
        target.putLong(tiny, 0xDDDD);
        target.afterRange(1, () -> {
            target.putLong(tiny, 0xEEEE);
            target.putLong(tiny + 8, HEAP_FRAME);
        });
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();
        byte[] header = new byte[FRAME_SIZE];
        copy.frame(tiny, header);

        assertThat(proof(copy).innermost(tiny, header)).isEqualTo(CopiedFrames.InnermostReading.BOTH_COPIES);
        assertThat(Bytes.getLong(header, 8)).as("as first copied").isZero();
    }

    @Test
    void anInnermostFrameOfAnotherCallerInTheSecondCopyIsLeftToTheProof() throws Exception {
        long caller = CHUNK + 0x100, tiny = CHUNK + 0x200;
        ScriptedMemory target = target(tiny);
        target.putLong(caller, 0xAAAA);
        target.putLong(tiny, 0xDDDD);
        target.putLong(tiny + 8, caller);
        target.afterRange(1, () -> {
            target.putLong(tiny, 0xEEEE);
            target.putLong(tiny + 8, CHUNK + 0x80);
        });
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();
        byte[] header = new byte[FRAME_SIZE];
        copy.frame(tiny, header);

        CopiedFrames.InnermostReading reading = proof(copy).innermost(tiny, header);
        assertThat(Bytes.getLong(header, 0)).as("as first copied").isEqualTo(0xDDDD);
        assertThat(proof(copy).unchangedInSecondCopy(walk(copy, tiny, caller), reading)).isFalse();
    }

    @Test
    void anInnermostFramePoppedBeforeTheSecondCopyIsProvenByItsCallers() throws Exception {
        long caller = CHUNK + 0x100, tiny = CHUNK + 0x200;
        ScriptedMemory target = target(tiny);
        target.putLong(caller, 0xAAAA);
        target.putLong(tiny, 0xDDDD);
        target.putLong(tiny + 8, caller);
        // Popped, its code cleared, between the two copies.
        target.afterRange(1, () -> target.putLong(tiny, 0));
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();
        byte[] header = new byte[FRAME_SIZE];
        copy.frame(tiny, header);

        CopiedFrames.InnermostReading reading = proof(copy).innermost(tiny, header);
        assertThat(reading).isEqualTo(CopiedFrames.InnermostReading.FIRST_COPY_ONLY);
        assertThat(Bytes.getLong(header, 0)).as("as first copied").isEqualTo(0xDDDD);
        WalkedFrames walked = walk(copy, tiny, caller);
        assertThat(proof(copy).unchangedInSecondCopy(walked, reading)).isTrue();
        assertThat(proof(copy).unchangedInSecondCopy(walked, CopiedFrames.InnermostReading.BOTH_COPIES)).isFalse();
    }

    /** A copy in {@code order} of a thread whose caller calls the callee just after the read's first range. */
    private static StackCopy copyWithACallAfterTheFirstRange(StateOrder order, long caller, long callee) throws Exception {
        ScriptedMemory target = target(caller);
        target.putLong(caller, 0xAAAA);
        target.afterRange(0, () -> {
            target.putLong(callee, 0xBBBB);
            target.putLong(callee + 8, caller);
            target.putLong(TSTATE + THREAD.currentFrame(), callee);
        });
        StackCopy copy = new StackCopy(THREAD, order);
        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();
        return copy;
    }

    @Test
    void readBetweenTheCopiesTheThreadStateNamesAFrameCalledAfterTheFirstCopy() throws Exception {
        // Where a returned frame keeps its code (3.10 to 3.13): the stack, the thread state, the stack again.
        long caller = CHUNK + 0x100, callee = CHUNK + 0x200;
        StackCopy copy = copyWithACallAfterTheFirstRange(StateOrder.STATE_BETWEEN, caller, callee);
        byte[] header = new byte[FRAME_SIZE];
        copy.frame(callee, header);

        assertThat(copy.current()).as("named after the call").isEqualTo(callee);
        assertThat(Bytes.getLong(header, 0)).as("its first copy predates the call").isZero();
        assertThat(proof(copy).innermost(callee, header)).isEqualTo(CopiedFrames.InnermostReading.SECOND_COPY);
        assertThat(Bytes.getLong(header, 0)).as("taken from the second copy").isEqualTo(0xBBBB);
    }

    @Test
    void readBetweenTheCopiesACallerReplacedAroundTheThreadStateIsCaught() throws Exception {
        long caller = CHUNK + 0x100, callee = CHUNK + 0x200;
        ScriptedMemory target = target(callee);
        target.putLong(caller, 0xAAAA);
        target.putLong(callee, 0xDDDD);
        target.putLong(callee + 8, caller);
        // Both return after the thread state named the callee; another call takes the caller's slot.
        target.afterRange(1, () -> target.putLong(caller, 0xBBBB));
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_BETWEEN);
        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();

        assertThat(proof(copy).unchangedInSecondCopy(walk(copy, callee, caller), CopiedFrames.InnermostReading.BOTH_COPIES))
                .as("the caller's slot differs between the copies").isFalse();
    }

    @Test
    void copyOrderFollowsWhatAReturnedFrameLeavesBehind() {
        // Read first, the thread state may name a frame that returned before the copies: only where its
        // code reads cleared is that seen, not taken for a frame under whatever call took its caller's slot.
        assertThat(dev.remora.domain.offsets.PoppedFrames.CODE_CLEARED.stateOrder()).isEqualTo(StateOrder.STATE_FIRST);
        assertThat(dev.remora.domain.offsets.PoppedFrames.KEPT.stateOrder()).isEqualTo(StateOrder.STATE_BETWEEN);
    }

    @Test
    void theThreadStateIsReadBeforeAnyOfTheStack() throws Exception {
        // Reading a running thread's stack slows it for a moment: what the tick shows must be named first.
        long caller = CHUNK + 0x100, callee = CHUNK + 0x200;
        StackCopy copy = copyWithACallAfterTheFirstRange(StateOrder.STATE_FIRST, caller, callee);

        assertThat(copy.current()).as("named before the call").isEqualTo(caller);
        assertThat(proof(copy).unchangedInSecondCopy(walk(copy, caller), CopiedFrames.InnermostReading.BOTH_COPIES)).isTrue();
    }

    @Test
    void aCopyReadBetweenTakesTheSnapshotsOwnThreadStateBetweenItsCopies() throws Exception {
        long caller = CHUNK + 0x100, callee = CHUNK + 0x200;
        ScriptedMemory target = target(caller);
        target.putLong(caller, 0xAAAA);
        SnapshotReader reader = new SnapshotReader(target, StateOrder.STATE_BETWEEN);
        reader.reset();
        reader.readState(TSTATE, new byte[THREAD.readLength()], 0, THREAD.readLength());
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_BETWEEN);
        copy.planFrom(TSTATE, state(target));
        reader.ride(copy);
        // A call lands after the copy's first range: the snapshot's thread state, read after it, names it.
        target.afterRange(0, () -> {
            target.putLong(callee, 0xBBBB);
            target.putLong(callee + 8, caller);
            target.putLong(TSTATE + THREAD.currentFrame(), callee);
        });
        long before = reader.remoteBytes();

        reader.reset();
        assertThat(copy.rodeAlong(reader)).isTrue();
        assertThat(copy.current()).as("the snapshot's own thread state, between the copies").isEqualTo(callee);
        assertThat(reader.remoteBytes() - before).as("the thread state read once: the copy's stack twice, and it")
                .isEqualTo(2L * (TOP + 512 - CHUNK) + THREAD.readLength());
    }

    @Test
    void aCopyRidingAlongIsReadBeforeTheSnapshotsOwnRanges() throws Exception {
        long caller = CHUNK + 0x100, callee = CHUNK + 0x200, interpreter = 0x3000;
        ScriptedMemory target = target(caller);
        target.putLong(caller, 0xAAAA);
        target.putLong(interpreter, 1);
        SnapshotReader reader = new SnapshotReader(target, StateOrder.STATE_FIRST);
        reader.reset();
        reader.read(interpreter, new byte[8], 0, 8);
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        copy.planFrom(TSTATE, state(target));
        reader.ride(copy);
        target.afterRange(0, () -> {
            target.putLong(TSTATE + THREAD.currentFrame(), callee);
            target.putLong(interpreter, 2);
        });

        reader.reset();
        assertThat(copy.rodeAlong(reader)).isTrue();
        assertThat(copy.current()).as("the batch's first range").isEqualTo(caller);
        byte[] own = new byte[8];
        reader.read(interpreter, own, 0, 8);
        assertThat(Bytes.getLong(own, 0)).as("the snapshot's own range, read after").isEqualTo(2);
    }

    @Test
    void aStackThatStoodStillPasses() throws Exception {
        long caller = CHUNK + 0x100, callee = CHUNK + 0x200;
        ScriptedMemory target = target(callee);
        target.putLong(caller, 0xAAAA);
        target.putLong(callee + 8, caller);
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();

        WalkedFrames walked = walk(copy, callee, caller);

        assertThat(walked.previous(0)).isEqualTo(caller);
        assertThat(proof(copy).unchangedInSecondCopy(walked, CopiedFrames.InnermostReading.BOTH_COPIES)).isTrue();
    }

    @Test
    void framesComeFromTheCopyAsTheyWereWhenCopied() throws Exception {
        long frame = CHUNK + 0x100;
        ScriptedMemory target = target(frame);
        target.putLong(frame, 0xAAAA);
        // The frame changes after the copy: the walk must see it as copied, between the two states.
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        read(copy, new SnapshotReader(target), target);
        target.putLong(frame, 0xBBBB);

        byte[] header = new byte[FRAME_SIZE];
        assertThat(copy.frame(frame, header)).isTrue();
        assertThat(Bytes.getLong(header, 0)).isEqualTo(0xAAAA);
        assertThat(copy.missed()).isFalse();
    }

    @Test
    void aFrameOutsideTheChunkIsMissedOnceThenCopied() throws Exception {
        ScriptedMemory target = target(HEAP_FRAME);
        target.putLong(HEAP_FRAME, 0xCCCC);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        byte[] header = new byte[FRAME_SIZE];

        read(copy, reader, target);
        assertThat(copy.frame(HEAP_FRAME, header)).as("a generator frame no read planned yet").isFalse();
        assertThat(copy.missed()).isTrue();
        copy.finishWalk();

        read(copy, reader, target);
        assertThat(copy.frame(HEAP_FRAME, header)).as("planned from the last walk").isTrue();
        assertThat(Bytes.getLong(header, 0)).isEqualTo(0xCCCC);
        assertThat(copy.missed()).isFalse();
    }

    @Test
    void framesOfCallsTheThreadSwitchesBetweenAreAllCopiedAfterAMiss() throws Exception {
        // 3.10: two calls in turn, each with its frame object far from the other's.
        long other = HEAP_FRAME + 0x10_0000;
        ScriptedMemory target = target(HEAP_FRAME);
        target.putLong(HEAP_FRAME, 0xAAAA);
        target.putLong(other, 0xBBBB);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        byte[] header = new byte[FRAME_SIZE];

        read(copy, reader, target);
        assertThat(copy.frame(HEAP_FRAME, header)).isFalse();
        copy.finishWalk();
        read(copy, reader, target);
        assertThat(copy.frame(other, header)).as("the other call, not planned yet").isFalse();
        copy.finishWalk();

        read(copy, reader, target);
        assertThat(copy.frame(HEAP_FRAME, header)).as("kept, though the last walk did not need it").isTrue();
        assertThat(copy.frame(other, header)).isTrue();
        assertThat(Bytes.getLong(header, 0)).isEqualTo(0xBBBB);
        copy.finishWalk();

        read(copy, reader, target);
        assertThat(copy.frame(other, header)).isTrue();
        copy.finishWalk();
        read(copy, reader, target);
        assertThat(copy.frame(HEAP_FRAME, header)).as("a walk that missed nothing plans only its own frames").isFalse();
    }

    @Test
    void aPlannedRangeThatIsGoneFailsOnceAndIsDropped() throws Exception {
        long gone = 0x7000_1000L;
        ScriptedMemory target = target(gone);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        read(copy, reader, target);
        copy.frame(gone, new byte[FRAME_SIZE]);
        copy.finishWalk();

        assertThat(read(copy, reader, target)).as("the planned frame is unmapped now").isFalse();
        assertThat(copy.plannedExtras()).isTrue();
        assertThat(read(copy, reader, target)).as("planned without it").isTrue();
    }

    @Test
    void aGarbageThreadStateCopiesNoChunk() throws Exception {
        ScriptedMemory target = target(CHUNK + 0x100);
        target.putLong(TSTATE + THREAD.datastackLimit(), CHUNK + (1L << 40));
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);

        assertThat(read(copy, new SnapshotReader(target), target)).isTrue();
        assertThat(copy.frame(CHUNK + 0x100, new byte[FRAME_SIZE])).as("no chunk read for a limit that far off").isFalse();
    }

    @Test
    void aThreadThatCalledDeeperLatelyIsCopiedAsDeepAsItWentThenLessAsItStaysUp() throws Exception {
        long deep = CHUNK + 0x1400;
        ScriptedMemory target = target(CHUNK + 0x100);
        StackCopy copy = new StackCopy(THREAD, StateOrder.STATE_FIRST);
        target.putLong(TSTATE + THREAD.datastackTop(), deep);
        copy.planFrom(TSTATE, state(target));
        // Planned from a state that caught the thread back near the bottom.
        target.putLong(TSTATE + THREAD.datastackTop(), TOP);
        copy.planFrom(TSTATE, state(target));
        target.putLong(deep - 8, 0x5555);
        assertThat(copy.read(new SnapshotReader(target))).isTrue();

        assertThat(copy.frame(deep - FRAME_SIZE, new byte[FRAME_SIZE])).as("a frame where the thread went lately").isTrue();

        for (int i = 0; i < 200; i++) {
            copy.planFrom(TSTATE, state(target));
        }
        assertThat(copy.read(new SnapshotReader(target))).isTrue();
        assertThat(copy.frame(deep - FRAME_SIZE, new byte[FRAME_SIZE])).as("long since").isFalse();
    }

    /** 3.11/3.12: the thread state points at a _PyCFrame (current frame at 8, previous at 16) at 16. */
    private static final DebugOffsets.Thread CFRAME_THREAD = new DebugOffsets.Thread(256, 0, 8, 56, 8,
            Optional.of(new DebugOffsets.CFrame(16, 16, 24)), OptionalLong.empty(), 64, OptionalLong.of(24),
            OptionalLong.of(32), OptionalLong.empty(),
            OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), OptionalLong.empty(), 64);
    private static final long C_STACK_CFRAME = 0x60_0000;

    private static ScriptedMemory cframeTarget(long cframe, long current) {
        ScriptedMemory target = target(0);
        target.putLong(TSTATE + 16, cframe);
        target.putLong(cframe + 8, current);
        target.putLong(cframe + 16, TSTATE + 32); // an enclosing eval loop's record
        return target;
    }

    private static boolean readCFrameCopy(StackCopy copy, SnapshotReader reader, ScriptedMemory target)
            throws MemoryAccessException {
        byte[] state = new byte[CFRAME_THREAD.readLength()];
        target.read(TSTATE, state, 0, state.length);
        copy.planFrom(TSTATE, state);
        return copy.read(reader);
    }

    /** A copy of a record target whose first read (which learns where the record is) is done. */
    private record CFrameCopy(ScriptedMemory target, SnapshotReader reader, StackCopy copy) {
        static CFrameCopy seenOnce(ScriptedMemory target) throws MemoryAccessException {
            CFrameCopy copied = new CFrameCopy(target, new SnapshotReader(target), new StackCopy(CFRAME_THREAD, StateOrder.STATE_BETWEEN));
            copied.readAgain();
            copied.copy().current();
            copied.copy().finishWalk();
            return copied;
        }

        boolean readAgain() throws MemoryAccessException {
            return readCFrameCopy(copy, reader, target);
        }

        /**
         * The copy read again, whole, while the long at {@code address} turned to {@code value} between the
         * record's two copies (its first is range 0, before the chunk; its second comes after it).
         */
        StackCopy copyRacedBy(long address, long value) throws MemoryAccessException {
            target.afterRange(0, () -> target.putLong(address, value));
            assertThat(readAgain()).as("every range arrived").isTrue();
            return copy;
        }
    }

    @Test
    void aCFrameOnTheCStackIsCopiedFromTheNextReadOn() throws Exception {
        long frame = CHUNK + 0x100;
        ScriptedMemory target = cframeTarget(C_STACK_CFRAME, frame);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(CFRAME_THREAD, StateOrder.STATE_BETWEEN);

        assertThat(readCFrameCopy(copy, reader, target)).isTrue();
        copy.current();
        assertThat(copy.currentProven()).as("the first copy lacks the C stack").isFalse();
        assertThat(copy.missed()).isTrue();
        copy.finishWalk();

        assertThat(readCFrameCopy(copy, reader, target)).isTrue();
        assertThat(copy.current()).isEqualTo(frame);
        assertThat(copy.currentProven()).isTrue();
        assertThat(copy.lostCFrame()).isZero();
    }

    @Test
    void aFrameReachingAboveTheDataStacksTopIsALeftover() throws Exception {
        ScriptedMemory target = cframeTarget(C_STACK_CFRAME, CHUNK + 0x100);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(CFRAME_THREAD, StateOrder.STATE_BETWEEN);
        readCFrameCopy(copy, reader, target);
        copy.current();

        assertThat(copy.fitsBelowTop(CHUNK + 0x100, 10)).isTrue();
        assertThat(copy.fitsBelowTop(TOP - 80, 10)).as("ends at the top").isTrue();
        assertThat(copy.fitsBelowTop(TOP, 10)).as("starts at the top: popped").isFalse();
        assertThat(copy.fitsBelowTop(TOP + 0x100, 10)).isFalse();
        assertThat(copy.fitsBelowTop(HEAP_FRAME, 10)).as("a generator's frame is off the data stack").isTrue();
        assertThat(copy.endsBelowTop(TOP - 80, 10)).as("ends at the top").isFalse();
        assertThat(copy.endsBelowTop(TOP - 88, 10)).as("a frame above it at the thread state's moment").isTrue();
        assertThat(copy.endsBelowTop(HEAP_FRAME, 10)).as("a generator's frame is off the data stack").isFalse();
    }

    @Test
    void recordsOfNestedEvalLoopsStayInTheCopy() throws Exception {
        // sorted() with a Python key: the thread switches between two records at every call.
        long inner = C_STACK_CFRAME - 0x200;
        ScriptedMemory target = cframeTarget(C_STACK_CFRAME, CHUNK + 0x100);
        target.putLong(inner + 8, CHUNK + 0x180);
        target.putLong(inner + 16, C_STACK_CFRAME);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(CFRAME_THREAD, StateOrder.STATE_BETWEEN);
        for (long record : new long[] {C_STACK_CFRAME, inner, C_STACK_CFRAME, inner}) {
            target.putLong(TSTATE + 16, record);
            readCFrameCopy(copy, reader, target);
            copy.current();
            copy.finishWalk();
        }
        target.putLong(TSTATE + 16, C_STACK_CFRAME);
        readCFrameCopy(copy, reader, target);
        assertThat(copy.current()).isEqualTo(CHUNK + 0x100);
        assertThat(copy.currentProven()).as("the outer record is still in the copy").isTrue();
        assertThat(copy.missed()).isFalse();
    }

    @Test
    void aCFrameWhoseCurrentFrameMovesBetweenTheCopiesGivesBothReadings() throws Exception {
        StackCopy copy = CFrameCopy.seenOnce(cframeTarget(C_STACK_CFRAME, CHUNK + 0x100)).copyRacedBy(
                // A call pushes a frame while the stack is copied: the record's first copy is older than the
                // thread state, its second newer; the data stack's top judges which held.
                C_STACK_CFRAME + 8, CHUNK + 0x200);

        assertThat(copy.current()).isEqualTo(CHUNK + 0x100);
        assertThat(copy.currentProven()).as("the same eval loop's record").isTrue();
        assertThat(copy.currentAsSecondCopied()).isEqualTo(CHUNK + 0x200);
    }

    @Test
    void aCFrameMadeAgainWithOtherPaddingBetweenTheCopiesIsProvenByItsLinks() throws Exception {
        StackCopy copy = CFrameCopy.seenOnce(cframeTarget(C_STACK_CFRAME, CHUNK + 0x100)).copyRacedBy(
                // 3.11: the called function returned and C called it again; the new record has the same
                // links, and in the bytes after its first one, what the C code between the calls left there.
                C_STACK_CFRAME, 0x5a5a_5a5a_5a5a_5a00L);

        assertThat(copy.current()).isEqualTo(CHUNK + 0x100);
        assertThat(copy.currentProven()).isTrue();
    }

    @Test
    void aCFrameWhoseCallerLinkChangesBetweenTheCopiesIsNotProven() throws Exception {
        StackCopy copy = CFrameCopy.seenOnce(cframeTarget(C_STACK_CFRAME, CHUNK + 0x100)).copyRacedBy(
                // Another eval loop made its record in the same place: the same frame named, another record before it.
                C_STACK_CFRAME + 16, C_STACK_CFRAME + 0x400);

        copy.current();
        assertThat(copy.currentProven()).isFalse();
    }

    @Test
    void aCFrameThatReadsAsZerosIsNamedAsLost() throws Exception {
        ScriptedMemory target = cframeTarget(C_STACK_CFRAME, 0);
        target.putLong(C_STACK_CFRAME + 16, 0); // a core that left the C stack out
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(CFRAME_THREAD, StateOrder.STATE_BETWEEN);
        readCFrameCopy(copy, reader, target);
        copy.current();
        copy.finishWalk();

        readCFrameCopy(copy, reader, target);
        assertThat(copy.current()).isZero();
        assertThat(copy.currentProven()).isTrue();
        assertThat(copy.lostCFrame()).isEqualTo(C_STACK_CFRAME);
    }

    @Test
    void theThreadStatesOwnRootCFrameIsReadFromTheThreadState() throws Exception {
        // No eval loop runs: the thread state points at its own root record, which names no frame.
        ScriptedMemory target = cframeTarget(TSTATE + 32, 0);
        target.putLong(TSTATE + 32 + 16, 0);
        SnapshotReader reader = new SnapshotReader(target);
        StackCopy copy = new StackCopy(CFRAME_THREAD, StateOrder.STATE_BETWEEN);

        assertThat(readCFrameCopy(copy, reader, target)).isTrue();
        assertThat(copy.current()).isZero();
        assertThat(copy.currentProven()).isTrue();
        assertThat(copy.lostCFrame()).as("a root record has no previous one").isZero();
    }
}
