package dev.remora.app.profile;

import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.jmh.CapturedMemory;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.ParkedThreads;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.ThreadStack;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.domain.offsets.DebugOffsetsDecoder;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.ports.MemoryAccessException;
import dev.remora.ports.RemoteMemory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The re-read and give-up paths of a walk, without timing: a parked target's memory is captured,
 * then served by a fake that changes the stack between its two copies in a read, a set number of
 * times. A stack that moved a few times is read again until it holds, and comes out exact; one that
 * moves on every read is given up after the re-reads, as moved, never shown as whole.
 */
@Tag("targets")
class RereadTest {

    private static final SnapshotOptions MAIN = SnapshotOptions.threads(false);

    static List<TargetInterpreter> interpreters() {
        return TargetInterpreters.all();
    }

    /** Captured memory in which the stack changes between the two copies of the next {@code moves} reads. */
    static final class MovingStack implements RemoteMemory {
        final CapturedMemory captured;
        int moves;
        int reads;

        MovingStack(CapturedMemory captured) {
            this.captured = captured;
        }

        @Override
        public void read(long address, byte[] dst, int offset, int length) throws MemoryAccessException {
            captured.read(address, dst, offset, length);
        }

        @Override
        public int readPrefix(long[] addresses, int[] lengths, byte[] dst, int[] dstOffsets, int count) {
            // A stack copy reads its ranges twice, the second time mirrored: change the range whose two
            // copies come nearest each other (the data stack's chunk) after its first. (A thread state the
            // batch reads twice, its copy's and the snapshot's own, is read far apart.)
            int copied = -1;
            int nearest = Integer.MAX_VALUE;
            for (int i = 0; i < count && moves > 0; i++) {
                for (int j = i + 1; j < count; j++) {
                    if (addresses[j] == addresses[i] && lengths[j] == lengths[i]) {
                        if (j - i < nearest) {
                            nearest = j - i;
                            copied = i;
                        }
                        break;
                    }
                }
            }
            byte[] before = null;
            try {
                for (int i = 0; i < count; i++) {
                    captured.read(addresses[i], dst, dstOffsets[i], lengths[i]);
                    if (i == copied) {
                        reads++;
                        before = new byte[lengths[i]];
                        captured.read(addresses[i], before, 0, before.length);
                        byte[] moved = before.clone();
                        for (int k = 0; k < moved.length; k++) {
                            moved[k] ^= (byte) 0x5a;
                        }
                        captured.write(addresses[i], moved, 0, moved.length);
                    }
                }
                return count;
            } catch (MemoryAccessException e) {
                throw new IllegalStateException(e);
            } finally {
                if (before != null) {
                    moves--;
                    try {
                        captured.write(addresses[copied], before, 0, before.length);
                    } catch (MemoryAccessException e) {
                        throw new IllegalStateException(e);
                    }
                }
            }
        }

        @Override
        public String backendName() {
            return "captured";
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("interpreters")
    void aStackThatMovedIsReadAgainAndOneThatKeepsMovingIsGivenUp(TargetInterpreter python) throws Exception {
        try (ParkedTarget target = ParkedThreads.start(python);
             VmReadvMemory live = VmReadvMemory.open((int) target.pid())) {
            CapturedMemory captured = new CapturedMemory(live);
            MovingStack memory = new MovingStack(captured);
            PythonProcess process = PythonProcess.attach(ProcfsProcessImage.of((int) target.pid()), memory);
            List<String> expected = ParkedThreads.MAIN_STACK;
            // Twice: the second snapshot's batch carries the stack copy along.
            assertThat(functions(mainThread(process))).isEqualTo(expected);
            assertThat(functions(mainThread(process))).isEqualTo(expected);
            captured.freeze();

            memory.moves = 5;
            ThreadStack reread = mainThread(process);
            assertThat(memory.reads).as("reads that met a moved stack").isEqualTo(5);
            assertThat(reread.problem()).as("read again until it held").isEmpty();
            assertThat(functions(reread)).isEqualTo(expected);

            memory.moves = Integer.MAX_VALUE;
            ThreadStack givenUp = mainThread(process);
            assertThat(givenUp.problem()).as("a stack that moves on every read").isPresent();
            assertThat(givenUp.problem().get()).contains("changed while it was read").contains("after 32 re-reads");
        }
    }

    /**
     * 3.8 to 3.10 clear a generator frame's link to its caller as it leaves it, after the thread state has
     * moved on: a walk that read the thread state just before finds a frame with no caller. That is a
     * stack that moved, read again and given up if it stays so, never a thread whose only frame is the
     * generator's.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("frameObjectInterpreters")
    void aGeneratorThatLeftItsCallerIsNoThreadsFirstFrame(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-genexpr-")) {
            Process target = new ProcessBuilder(python.scriptCommand(dir.copyResource("targets/parked_genexpr.py"), List.of()))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try (VmReadvMemory live = VmReadvMemory.open((int) target.pid())) {
                String[] ready = new java.io.BufferedReader(new java.io.InputStreamReader(target.getInputStream(),
                        java.nio.charset.StandardCharsets.US_ASCII)).readLine().split(" ");
                assertThat(ready[0]).isEqualTo("READY");
                long generatorFrame = Long.parseLong(ready[1]);
                // The print that says READY may still be returning: wait, reading live, until the thread
                // sleeps in the genexpr; only then capture (a captured page is never read again).
                List<String> parked = List.of("<genexpr>", "outer", "<module>");
                PythonProcess running = PythonProcess.attach(ProcfsProcessImage.of((int) target.pid()), live);
                long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
                while (!functions(mainThread(running)).equals(parked) && System.nanoTime() < deadline) {
                    Thread.sleep(5);
                }
                CapturedMemory captured = new CapturedMemory(live);
                PythonProcess process = PythonProcess.attach(ProcfsProcessImage.of((int) target.pid()), captured);
                assertThat(functions(mainThread(process))).isEqualTo(parked);
                captured.freeze();

                DebugOffsets.Frame frame = DebugOffsetsDecoder.fromHeaders(process.version()).frame();
                captured.write(generatorFrame + frame.previous(), new byte[8], 0, 8);
                // 3.10's FRAME_RETURNED; 3.8's and 3.9's f_executing cleared
                byte[] returned = {(byte) frame.frameObject().orElseThrow().returned()};
                captured.write(generatorFrame + frame.frameObject().orElseThrow().state(), returned, 0, 1);
                ThreadStack left = mainThread(process);
                assertThat(left.problem()).as("frames %s", functions(left)).isPresent();
                assertThat(left.problem().get()).contains("changed while it was read");
            } finally {
                target.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
            }
        }
    }

    static List<TargetInterpreter> frameObjectInterpreters() {
        return TargetInterpreters.all().stream().filter(python -> python.minor() <= 10).toList();
    }

    private static ThreadStack mainThread(PythonProcess process) throws Exception {
        return process.snapshot(MAIN).interpreters().getFirst().threads().getFirst();
    }

    private static List<String> functions(ThreadStack thread) {
        return thread.frames().stream().map(FrameInfo::function).toList();
    }
}
