package dev.remora.domain.walk;

import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.ProcessStacks;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.model.StackVisitor;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.testing.CapturedImage;
import dev.remora.domain.testing.EmptyProcessImage;
import dev.remora.ports.testing.ScriptedMemory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The whole walk (process, threads, stack copies, proofs, code objects, line tables) over memory
 * captured from real parked processes of each frame shape (see {@link CapturedImage}), without root:
 * its stacks must equal those the process recorded of itself, also when a stack moves between the
 * two copies of a read, and the frame marker must be kept, or refused, without a wrong stack.
 */
class CapturedWalkTest {

    static List<String> images() {
        return CapturedImage.NAMES;
    }

    private static final SnapshotOptions ALL = SnapshotOptions.of(SnapshotOptions.Threads.ALL);

    private record Attached(CapturedImage image, ScriptedMemory memory, PythonProcess process) {}

    private static Attached attach(String name, ScriptedMemory empty) throws Exception {
        CapturedImage image = CapturedImage.load(name);
        ScriptedMemory memory = image.memory(empty);
        return new Attached(image, memory, PythonProcess.at(new EmptyProcessImage(image.pid()), memory, image.runtime(memory)));
    }

    /** Each thread's frames in the image's stack format, by thread id. */
    private static TreeMap<Long, List<String>> byThread(List<String> lines) {
        TreeMap<Long, List<String>> threads = new TreeMap<>();
        for (String line : lines) {
            threads.computeIfAbsent(Long.parseLong(line.substring(0, line.indexOf('\t'))), t -> new ArrayList<>()).add(line);
        }
        return threads;
    }

    private static TreeMap<Long, List<String>> byThread(ProcessStacks stacks) {
        List<String> lines = new ArrayList<>();
        for (var interpreter : stacks.interpreters()) {
            for (ThreadStack thread : interpreter.threads()) {
                assertThat(thread.problem()).as("thread %d", thread.threadId()).isEmpty();
                for (FrameInfo f : thread.frames()) {
                    lines.add(line(thread.threadId(), f));
                }
            }
        }
        return byThread(lines);
    }

    /** A frame in the image's stack format. */
    private static String line(long thread, FrameInfo f) {
        return String.join("\t", Long.toString(thread), f.function(), f.file(), Integer.toString(f.location().line()),
                Integer.toString(f.location().endLine()), Integer.toString(f.location().column()),
                Integer.toString(f.location().endColumn()));
    }

    @ParameterizedTest
    @MethodSource("images")
    void aDumpOfTheCapturedMemoryEqualsWhatTheProcessRecorded(String name) throws Exception {
        Attached core = attach(name, ScriptedMemory.core());

        assertThat(byThread(core.process().snapshot(ALL))).isEqualTo(byThread(core.image().stacks()));
    }

    @ParameterizedTest
    @MethodSource("images")
    void aLiveWalkThatRidesItsBatchesStaysExact(String name) throws Exception {
        Attached live = attach(name, ScriptedMemory.live());
        TreeMap<Long, List<String>> expected = byThread(live.image().stacks());

        for (int i = 0; i < 5; i++) {
            assertThat(byThread(live.process().snapshot(ALL))).as("snapshot %d", i).isEqualTo(expected);
        }
        assertThat(live.process().stats().checksFromBatch()).as("walks proven by a batch's second copies").isPositive();
    }

    /**
     * What one walk (no snapshot-level retry) found: each thread's frames in the image's format, its
     * problem, where its current frame is, and its Python frames innermost first, each as its address
     * and its code's.
     */
    private record OneWalk(TreeMap<Long, List<String>> frames, List<String> problems, Map<Long, Long> currentFrames,
                           Map<Long, List<long[]>> walked) {}

    private static OneWalk walkOnce(PythonProcess process) throws Exception {
        List<String> lines = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<Long, Long> currentFrames = new HashMap<>();
        Map<Long, List<long[]>> walked = new HashMap<>();
        process.sample(ALL, new StackVisitor() {
            private long thread;

            @Override
            public boolean beginThread(long interpreterId, long threadId, int status) {
                thread = threadId;
                return true;
            }

            @Override
            public void frame(FrameInfo f) {
                lines.add(line(thread, f));
            }

            @Override
            public void pythonFrame(FrameInfo f, long frameAddress, long codeAddress) {
                currentFrames.putIfAbsent(thread, frameAddress);
                walked.computeIfAbsent(thread, t -> new ArrayList<>()).add(new long[] {frameAddress, codeAddress});
                frame(f);
            }

            @Override
            public void endThread(Optional<StackProblem> problem) {
                problem.ifPresent(p -> problems.add(thread + ": " + p));
            }
        });
        return new OneWalk(byThread(lines), problems, currentFrames, walked);
    }

    /** The address of the main thread's current frame, as a walk of the image finds it. */
    private static long mainThreadsCurrentFrame(String name) throws Exception {
        Attached core = attach(name, ScriptedMemory.core());
        OneWalk walk = walkOnce(core.process());
        assertThat(walk.problems()).isEmpty();
        return walk.currentFrames().get((long) core.image().pid());
    }

    /** A live attach of image {@code name}, with the link from its main thread's current frame to its caller. */
    private record CallerLink(Attached attached, long link, long caller) {
        static CallerLink of(String name) throws Exception {
            long frame = mainThreadsCurrentFrame(name);
            Attached live = attach(name, ScriptedMemory.live());
            long link = frame + frameOffsets(live).previous();
            return new CallerLink(live, link, live.memory().getLong(link));
        }
    }

    private static DebugOffsets.Frame frameOffsets(Attached attached) throws Exception {
        return attached.image().runtime(attached.memory()).offsets().frame();
    }

    @ParameterizedTest
    @MethodSource("images")
    void aStackThatMovesBetweenItsTwoCopiesIsReadAgainAndComesOutExact(String name) throws Exception {
        long frame = mainThreadsCurrentFrame(name);
        Attached live = attach(name, ScriptedMemory.live());
        ScriptedMemory memory = live.memory();
        long link = frame + frameOffsets(live).previous();
        long caller = memory.getLong(link);
        walkOnce(live.process()); // plans the copies: the next walk's ride along with its batch
        AtomicInteger moves = new AtomicInteger();
        // First copy as it was; the second sees the link changed; the copy read again, as it was again.
        memory.beforeReadOf(link, () -> memory.beforeReadOf(link, () -> {
            memory.putLong(link, caller + 0x40);
            moves.incrementAndGet();
            memory.beforeReadOf(link, () -> memory.putLong(link, caller));
        }));

        OneWalk walk = walkOnce(live.process());

        assertThat(moves).as("the race happened").hasValue(1);
        assertThat(memory.getLong(link)).as("and was undone").isEqualTo(caller);
        assertThat(walk.problems()).isEmpty();
        assertThat(walk.frames()).isEqualTo(byThread(live.image().stacks()));
    }

    /**
     * 3.11 and 3.12 name the current frame in the eval loop's record, copied before and after the
     * stack. A thread that calls at the microsecond has an older current frame in the first copy than
     * at the thread state's moment: the data stack's top shows a frame above it, and the second copy
     * names it. Here every copy finds the record so, the caller first and the current frame second.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pyenv-3.11.7-shared", "pyenv-3.12.1-shared"})
    void aRecordThatNamesTheCallerInItsFirstCopyGivesTheStackOfTheThreadStatesMoment(String name) throws Exception {
        long frame = mainThreadsCurrentFrame(name);
        Attached live = attach(name, ScriptedMemory.live());
        ScriptedMemory memory = live.memory();
        long field = recordFieldNaming(live, frame);
        long caller = memory.getLong(frame + frameOffsets(live).previous());
        AtomicInteger reads = beforeEachReadOf(memory, field, read -> read % 2 == 0 ? caller : frame);

        OneWalk walk = walkOnce(live.process());

        assertThat(reads).as("copies of the record read").hasValueGreaterThanOrEqualTo(2);
        assertThat(walk.problems()).isEmpty();
        assertThat(walk.frames()).isEqualTo(byThread(live.image().stacks()));
    }

    /**
     * A thread caught making a call (3.11, 3.12): the callee's frame is pushed on the data stack, and
     * the record still names the caller. Held still (a core, or --blocking), that is the stack of the
     * moment; running, the same readings after every read are a call that never settles, and an error.
     */
    @ParameterizedTest
    @ValueSource(strings = {"pyenv-3.11.7-shared", "pyenv-3.12.1-shared"})
    void aThreadCaughtMakingACallShowsItsCallerOnlyWhenHeldStill(String name) throws Exception {
        long frame = mainThreadsCurrentFrame(name);
        for (ScriptedMemory empty : List.of(ScriptedMemory.core(), ScriptedMemory.live())) {
            Attached attached = attach(name, empty);
            ScriptedMemory memory = attached.memory();
            long top = stateNaming(attached, frame) + offsets(attached).thread().datastackTop();
            memory.putLong(top, memory.getLong(top) + 0x100);

            OneWalk walk = walkOnce(attached.process());

            if (memory.changes()) {
                assertThat(walk.problems()).singleElement().asString().contains("rereads=32");
            } else {
                assertThat(walk.problems()).isEmpty();
                assertThat(walk.frames()).isEqualTo(byThread(attached.image().stacks()));
            }
        }
    }

    private static DebugOffsets offsets(Attached attached) throws Exception {
        return attached.image().runtime(attached.memory()).offsets();
    }

    /**
     * Before every read of the memory holding {@code address}, puts there the value {@code valueAt} gives
     * for that read (0 for the first); returns the count of reads so far.
     */
    private static AtomicInteger beforeEachReadOf(ScriptedMemory memory, long address, IntToLongFunction valueAt) {
        AtomicInteger reads = new AtomicInteger();
        Runnable[] next = new Runnable[1];
        next[0] = () -> {
            memory.putLong(address, valueAt.applyAsLong(reads.getAndIncrement()));
            memory.beforeReadOf(address, next[0]);
        };
        memory.beforeReadOf(address, next[0]);
        return reads;
    }

    /** Where the record that names {@code frame} as a thread's current frame holds it. */
    private static long recordFieldNaming(Attached attached, long frame) throws Exception {
        DebugOffsets.Thread thread = offsets(attached).thread();
        return attached.memory().getLong(stateNaming(attached, frame) + thread.cframe().orElseThrow().pointer()) + thread.currentFrame();
    }

    /** The thread state whose record names {@code frame} as its current frame. */
    private static long stateNaming(Attached attached, long frame) throws Exception {
        ScriptedMemory memory = attached.memory();
        var runtime = attached.image().runtime(memory);
        DebugOffsets offsets = runtime.offsets();
        long interpreter = memory.getLong(runtime.address() + offsets.runtime().interpretersHead());
        int threads = 0;
        for (long t = memory.getLong(interpreter + offsets.interpreter().threadsHead()); t != 0 && threads++ < 64;
             t = memory.getLong(t + offsets.thread().next())) {
            long record = memory.getLong(t + offsets.thread().cframe().orElseThrow().pointer());
            if (memory.getLong(record + offsets.thread().currentFrame()) == frame) {
                return t;
            }
        }
        throw new AssertionError("no thread's record names frame 0x%x".formatted(frame));
    }

    /**
     * 3.14+ clear a frame's code as it returns. A running thread whose current frame returned before
     * either copy read it ran some function at the thread state's moment, but which is unknown: shown
     * as its caller, microsecond calls gave their ticks to their callers. Here the first read finds it
     * cleared in both copies, and the next finds it called again: the tick is read again, and exact.
     */
    @ParameterizedTest
    @ValueSource(strings = {"debian-3.14", "debian-3.15"})
    void aCurrentFrameThatReturnedBeforeItWasReadIsReadAgainNotShownAsItsCaller(String name) throws Exception {
        long frame = mainThreadsCurrentFrame(name);
        Attached live = attach(name, ScriptedMemory.live());
        ScriptedMemory memory = live.memory();
        long executable = frame + frameOffsets(live).executable();
        long code = memory.getLong(executable);
        // Both copies of the first read find it returned; the read again finds it called again.
        AtomicInteger reads = beforeEachReadOf(memory, executable, read -> read < 2 ? 0 : code);

        OneWalk walk = walkOnce(live.process());

        assertThat(reads).as("read again").hasValueGreaterThan(2);
        assertThat(walk.problems()).isEmpty();
        assertThat(walk.frames()).isEqualTo(byThread(live.image().stacks()));
    }

    /**
     * A current frame whose code reads cleared (it returned after the thread state named it, before its
     * slot was copied) ran at the thread state's moment: once a walk has met its code, the code that
     * holds its last instruction names it, and the stack is the one the process recorded, on the copied
     * walk and on 3.15's frame-by-frame walk with its marker.
     */
    @ParameterizedTest
    @ValueSource(strings = {"debian-3.14", "debian-3.15"})
    void aCurrentFrameThatReturnedIsNamedByTheCodeHoldingItsLastInstruction(String name) throws Exception {
        long frame = mainThreadsCurrentFrame(name);
        for (boolean markers : name.endsWith("3.15") ? List.of(true, false) : List.of(false)) {
            Attached live = attach(name, ScriptedMemory.live().acceptWrites());
            if (markers) {
                live.process().useFrameMarkers();
            }
            TreeMap<Long, List<String>> expected = byThread(live.image().stacks());
            assertThat(walkOnce(live.process()).problems()).isEmpty();
            live.memory().putLong(frame + frameOffsets(live).executable(), 0);

            OneWalk walk = walkOnce(live.process());

            assertThat(walk.problems()).as("markers %s", markers).isEmpty();
            assertThat(walk.frames()).as("markers %s", markers).isEqualTo(expected);
        }
    }

    /**
     * A returned current frame whose caller's slot now holds a frame of another size (the caller
     * returned too, and its own caller called something else there) is no frame that caller made: the
     * walk is read again, and says why when it never fits.
     */
    @ParameterizedTest
    @ValueSource(strings = {"debian-3.14", "debian-3.15"})
    void aReturnedFrameThatDoesNotStartWhereItsCallersFrameEndsIsAnError(String name) throws Exception {
        Attached live = attach(name, ScriptedMemory.live().acceptWrites());
        List<long[]> main = walkOnce(live.process()).walked().get((long) live.image().pid());
        List<Long> frames = main.stream().map(f -> f[0]).toList();
        List<Long> codes = main.stream().map(f -> f[1]).toList();
        long current = frames.get(0), caller = frames.get(1);
        assertThat(current - caller).as("the caller's frame ends where the current one starts").isPositive();
        DebugOffsets.Frame offsets = frameOffsets(live);
        // Another code the walk met, whose frames are of another size, in the caller's slot.
        byte[] raw = new byte[8];
        live.memory().read(caller + offsets.executable(), raw, 0, 8);
        long rawCaller = dev.remora.domain.memory.Bytes.getLong(raw, 0);
        long other = codes.stream().filter(c -> !c.equals(codes.get(1)) && !c.equals(codes.get(0))).findFirst().orElseThrow();
        long tag = rawCaller - codes.get(1);
        live.memory().putLong(caller + offsets.executable(), other + tag);
        live.memory().putLong(current + offsets.executable(), 0);

        for (boolean markers : name.endsWith("3.15") ? List.of(false, true) : List.of(false)) {
            if (markers) {
                live.process().useFrameMarkers();
            }

            OneWalk walk = walkOnce(live.process());

            // The copied walk's proof finds the frame out of place before it is named; read again as copies,
            // the frame-by-frame walk's too.
            assertThat(walk.problems()).as("markers %s", markers).singleElement().asString().contains("kind=MOVED")
                    .containsAnyOf("does not start where its caller's frame ends", "the stack changed while it was read")
                    .contains("rereads=32");
        }
    }

    /**
     * A returned current frame is named only under a caller that has made a call: one just pushed (its
     * {@code return_offset} still 0) in the slot of a caller that returned too is no caller of it, though
     * both copies read it the same.
     */
    @ParameterizedTest
    @ValueSource(strings = {"debian-3.14", "debian-3.15"})
    void aReturnedFrameIsNotNamedUnderACallerThatHasMadeNoCall(String name) throws Exception {
        Attached live = attach(name, ScriptedMemory.live().acceptWrites());
        List<long[]> main = walkOnce(live.process()).walked().get((long) live.image().pid());
        long current = main.get(0)[0], caller = main.get(1)[0];
        DebugOffsets.Frame offsets = frameOffsets(live);
        long field = caller + offsets.returnOffset().orElseThrow();
        assertThat(live.memory().getLong(field) & 0xFFFF).as("the caller's return offset, as recorded").isNotZero();
        live.memory().putLong(current + offsets.executable(), 0);
        live.memory().putLong(field, live.memory().getLong(field) & 0xFFFF_FFFF_FFFF_0000L); // its low two bytes

        OneWalk walk = walkOnce(live.process());

        assertThat(walk.problems()).singleElement().asString().contains("has made no call").contains("rereads=32");
    }

    /**
     * A current frame whose code reads cleared at every read, of a code no walk has met: running, an
     * error that says why, on the copied walk and on 3.15's frame-by-frame walk with its marker; held
     * still (a core), the thread is caught returning, and its callers are the stack.
     */
    @ParameterizedTest
    @ValueSource(strings = {"debian-3.14", "debian-3.15"})
    void aCurrentFrameThatHasReturnedAtEveryReadIsAnErrorUnlessHeldStill(String name) throws Exception {
        long frame = mainThreadsCurrentFrame(name);
        for (boolean markers : name.endsWith("3.15") ? List.of(true, false) : List.of(false)) {
            Attached live = attach(name, ScriptedMemory.live().acceptWrites());
            if (markers) {
                live.process().useFrameMarkers();
            }
            live.memory().putLong(frame + frameOffsets(live).executable(), 0);

            OneWalk walk = walkOnce(live.process());

            assertThat(walk.problems()).as("markers %s", markers).singleElement().asString()
                    .contains("the current frame returned before it was read").contains("rereads=32");
        }
        Attached core = attach(name, ScriptedMemory.core());
        core.memory().putLong(frame + frameOffsets(core).executable(), 0);
        TreeMap<Long, List<String>> callers = byThread(core.image().stacks());
        callers.get((long) core.image().pid()).removeFirst();

        OneWalk held = walkOnce(core.process());

        assertThat(held.problems()).isEmpty();
        assertThat(held.frames()).isEqualTo(callers);
    }

    /** The state 3.10 gives a frame object as it returns ({@code FRAME_RETURNED}): freed frames keep it. */
    private static final int FRAME_RETURNED = 1;

    /** Where 3.10's frame object at {@code frame} keeps its state. */
    private static long stateOf(Attached attached, long frame) throws Exception {
        return frame + frameOffsets(attached).frameObject().orElseThrow().state();
    }

    /**
     * A caller that reads finished in both copies is a freed frame object (3.10 keeps its code, puts the
     * free list's link where its caller's was, and reuses it last out, first in, so both copies can
     * agree): the thread's stack moved past it.
     * Running, the tick is read again until it gives up; its links are never walked into a stack.
     */
    @Test
    void aCallerFrameObjectThatHasFinishedIsNeverWalkedThrough() throws Exception {
        String name = "pyenv-3.10.13-shared";
        CallerLink link = CallerLink.of(name);
        Attached live = link.attached();
        live.memory().putByte(stateOf(live, link.caller()), FRAME_RETURNED);

        OneWalk walk = walkOnce(live.process());

        assertThat(walk.problems()).singleElement().asString().contains("the stack changed while it was read")
                .contains("rereads=32");
    }

    @Test
    void aStackThatNeverHoldsStillIsAnErrorAfterEveryRereadWasSpent() throws Exception {
        String name = "debian-3.15";
        long frame = mainThreadsCurrentFrame(name);
        Attached live = attach(name, ScriptedMemory.live());
        ScriptedMemory memory = live.memory();
        long link = frame + frameOffsets(live).previous();
        long caller = memory.getLong(link);
        // Every read of the frame sees its link other than the read before it saw.
        Runnable[] flip = new Runnable[1];
        flip[0] = () -> {
            memory.putLong(link, memory.getLong(link) == caller ? caller + 0x40 : caller);
            memory.beforeReadOf(link, flip[0]);
        };
        memory.beforeReadOf(link, flip[0]);

        OneWalk walk = walkOnce(live.process());

        // What the last reading met is the error's reason (here: a link into the middle of a frame).
        assertThat(walk.problems()).singleElement().asString().startsWith(live.image().pid() + ": ").contains("rereads=32");
    }

    /**
     * A stopped target ({@code --blocking}) whose thread stopped in the middle of a call reads torn
     * however often it is read: the walk lets it run on, and reads it whole once it has.
     */
    @ParameterizedTest
    @MethodSource("images")
    void aStoppedThreadCaughtInTheMiddleOfACallIsReadWholeOnceLetRunOn(String name) throws Exception {
        CallerLink torn = CallerLink.of(name);
        Attached stopped = torn.attached();
        ScriptedMemory memory = stopped.memory();
        long link = torn.link();
        long caller = torn.caller();
        memory.putLong(link, 1); // a link not written yet
        List<Integer> turns = new ArrayList<>();
        stopped.process().stoppedForEachWalk(turn -> {
            turns.add(turn);
            memory.putLong(link, caller); // it ran on, past the write
            return true;
        });

        OneWalk walk = walkOnce(stopped.process());

        assertThat(turns).as("let run on once").containsExactly(0);
        assertThat(walk.problems()).isEmpty();
        assertThat(walk.frames()).isEqualTo(byThread(stopped.image().stacks()));
    }

    @Test
    void aTornStackOfATargetThatIsNotStoppedIsAnErrorAfterItsRereads() throws Exception {
        CallerLink torn = CallerLink.of("pyenv-3.12.1-shared");
        torn.attached().memory().putLong(torn.link(), 1);

        OneWalk walk = walkOnce(torn.attached().process());

        assertThat(walk.problems()).singleElement().asString().contains("0x1").contains("rereads=32");
    }

    @Test
    void theFrameMarkerLetsLaterWalksReuseTheFramesBelowIt() throws Exception {
        Attached live = attach("debian-3.15", ScriptedMemory.live().acceptWrites());
        live.process().useFrameMarkers();
        TreeMap<Long, List<String>> expected = byThread(live.image().stacks());

        for (int i = 0; i < 5; i++) {
            assertThat(byThread(live.process().snapshot(ALL))).as("snapshot %d", i).isEqualTo(expected);
        }
        WalkStats stats = live.process().stats();
        assertThat(live.memory().writes()).as("markers written").isNotEmpty();
        assertThat(stats.framesBelowMarker()).as("frames reused below a marker").isPositive();
    }

    @Test
    void aMarkerTheTargetRefusesLeavesEveryWalkWhole() throws Exception {
        Attached live = attach("debian-3.15", ScriptedMemory.live().refuseWrites());
        live.process().useFrameMarkers();
        TreeMap<Long, List<String>> expected = byThread(live.image().stacks());

        for (int i = 0; i < 5; i++) {
            assertThat(byThread(live.process().snapshot(ALL))).as("snapshot %d", i).isEqualTo(expected);
        }
        assertThat(live.memory().writes()).as("writes tried").isNotEmpty();
        assertThat(live.process().stats().framesBelowMarker()).as("no frame reused below a marker never written").isZero();
    }
}
