package dev.remora.app.profile;

import dev.remora.adapters.procmem.ProcMemMemory;
import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ParkedThreads;
import dev.remora.app.testing.ScratchDir;
import dev.remora.app.testing.TargetInterpreter;
import dev.remora.app.testing.TargetInterpreters;
import dev.remora.domain.InspectionException;
import dev.remora.domain.profile.CallTree;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.domain.walk.WalkStats;
import dev.remora.ports.RemoteMemory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Frame markers (CPython 3.15): walks that reuse the frames below the marker must still give only
 * stacks that existed, through the snapshot path and through a profile's remembered tails, while
 * reading far less of a deep stack.
 */
@Tag("targets")
class FrameMarkerTest {

    /** Deeper than the stacks on which the marker is moved, so that every walk keeps one. */
    private static final ChurnStacks DEEP_CHURN = new ChurnStacks(60);
    /** No deep base: the marker lands only where a current frame stayed for two walks. */
    private static final ChurnStacks SHALLOW_CHURN = new ChurnStacks(0);
    private static final SnapshotOptions MAIN = SnapshotOptions.of(SnapshotOptions.Threads.MAIN);

    static List<TargetInterpreter> markerInterpreters() {
        return TargetInterpreters.all().stream().filter(p -> p.minor() >= 15).toList();
    }

    /** Each 3.15 interpreter through each backend that can write the marker. */
    static List<Arguments> markerCases() {
        List<Arguments> cases = new ArrayList<>();
        for (TargetInterpreter python : markerInterpreters()) {
            cases.add(Arguments.of(python, "procmem"));
            cases.add(Arguments.of(python, "vmreadv"));
        }
        return cases;
    }

    private static RemoteMemory open(String backend, int pid) {
        return backend.equals("procmem") ? ProcMemMemory.open(pid) : VmReadvMemory.open(pid);
    }

    /** A reader of the target that keeps frame markers. */
    private static PythonProcess marked(ChurnStacks.Running target, RemoteMemory memory) throws Exception {
        PythonProcess marked = PythonProcess.attach(ProcfsProcessImage.of(target.pid()), memory);
        marked.useFrameMarkers();
        return marked;
    }

    static List<TargetInterpreter> olderInterpreters() {
        return TargetInterpreters.all().stream().filter(p -> p.minor() < 15).toList();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("markerCases")
    void markedWalksSeeOnlyPossibleStacks(TargetInterpreter python, String backend) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-marker-");
             ChurnStacks.Running target = DEEP_CHURN.start(python, dir);
             RemoteMemory memory = open(backend, target.pid())) {
            PythonProcess marked = PythonProcess.attach(ProcfsProcessImage.of(target.pid()), memory);
            marked.useFrameMarkers();

            List<String> snapshots = ChurnStacks.mainStacks(marked, MAIN, 3000, () -> true);
            ProfileBuilder builder = new ProfileBuilder(new ProfileInfo(target.pid(), "3.15", backend,
                    ProfileMode.WALL, 1, 0));
            WalkStats before = marked.stats();
            for (int i = 0; i < 3000; i++) {
                builder.beginSample(i);
                marked.sample(MAIN, builder);
            }
            WalkStats after = marked.stats();
            List<String> profiled = stacks(builder.profile());

            assertThat(new HashSet<>(snapshots)).as("distinct stacks").hasSizeGreaterThan(3);
            assertThat(snapshots).as("snapshots").hasSizeGreaterThan(300);
            assertThat(profiled).as("profiled samples").hasSizeGreaterThan(300);
            assertThat(DEEP_CHURN.impossible(snapshots)).as("impossible snapshots").hasSizeLessThanOrEqualTo(Math.max(1, snapshots.size() / 1000));
            assertThat(DEEP_CHURN.impossible(profiled)).as("impossible profiled stacks").hasSizeLessThanOrEqualTo(Math.max(1, profiled.size() / 1000));
            long markerWalks = after.markerWalks() - before.markerWalks();
            // How many walks find the marker proven depends on how busy the machine is (73 to over 1000
            // of these 3000 seen); without markers none does.
            assertThat(markerWalks).as("walks that reused frames below the marker").isGreaterThan(10);
            assertThat((after.framesBelowMarker() - before.framesBelowMarker()) / markerWalks)
                    .as("frames reused per such walk, of the 60 under dispatch()").isGreaterThanOrEqualTo(55);
        }
    }

    /**
     * The marker saves reads: on a deep stack that stays put (so that no walk meets a change and
     * starts again, which would make the figure depend on timing), a marked walk reads less than one
     * that reads every frame.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("markerCases")
    void markedWalksOfAStillDeepStackReadLess(TargetInterpreter python, String backend) throws Exception {
        try (ParkedTarget target = ParkedThreads.start(python, 60);
             RemoteMemory memory = open(backend, (int) target.pid())) {
            ProcfsProcessImage image = ProcfsProcessImage.of((int) target.pid());
            PythonProcess plain = PythonProcess.attach(image, memory);
            PythonProcess marked = PythonProcess.attach(image, memory);
            marked.useFrameMarkers();
            for (int i = 0; i < 20; i++) {
                marked.sample(MAIN, new ProfileBuilder(new ProfileInfo(1, "3.15", backend, ProfileMode.WALL, 1, 0)));
            }
            WalkStats before = marked.stats();
            for (int i = 0; i < 300; i++) {
                marked.sample(MAIN, new ProfileBuilder(new ProfileInfo(1, "3.15", backend, ProfileMode.WALL, 1, 0)));
            }
            WalkStats after = marked.stats();
            WalkStats plainBefore = plain.stats();
            for (int i = 0; i < 300; i++) {
                plain.sample(MAIN, new ProfileBuilder(new ProfileInfo(1, "3.15", backend, ProfileMode.WALL, 1, 0)));
            }
            WalkStats plainAfter = plain.stats();
            double markedBytes = (double) (after.remoteBytes() - before.remoteBytes()) / (after.snapshots() - before.snapshots());
            double plainBytes = (double) (plainAfter.remoteBytes() - plainBefore.remoteBytes()) / (plainAfter.snapshots() - plainBefore.snapshots());
            assertThat(after.markerWalks() - before.markerWalks()).as("walks that reused the marked frames").isPositive();
            assertThat(markedBytes).as("bytes read per marked walk vs %.0f unmarked", plainBytes).isLessThan(plainBytes);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("markerCases")
    void shallowStacksTakeTheMarkerWhenTheyStayAndStayPossible(TargetInterpreter python, String backend) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-marker-");
             ChurnStacks.Running target = SHALLOW_CHURN.start(python, dir);
             RemoteMemory memory = open(backend, target.pid())) {
            PythonProcess marked = marked(target, memory);
            WalkStats before = marked.stats();
            List<String> snapshots = ChurnStacks.mainStacks(marked, MAIN, 5000,
                    () -> marked.stats().markerWalks() > before.markerWalks());
            WalkStats after = marked.stats();
            assertThat(new HashSet<>(snapshots)).as("distinct stacks").hasSizeGreaterThan(3);
            assertThat(after.markerWalks() - before.markerWalks()).as("walks that stopped at the marker").isPositive();
            assertThat(SHALLOW_CHURN.impossible(snapshots)).as("impossible snapshots")
                    .hasSizeLessThanOrEqualTo(Math.max(1, snapshots.size() / 1000));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("markerInterpreters")
    void theMarkerMovesUpOntoAFrameThatStaysAboveIt(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-marker-");
             ChurnStacks.Running target = ChurnStacks.start(python, dir, "settle_then_spin.py");
             RemoteMemory memory = VmReadvMemory.open(target.pid())) {
            PythonProcess marked = marked(target, memory);
            // The chain under spin() is: the entry frame, <module>, main(), spin().
            int spinPosition = 3;
            long spinning = 0, markerBelowSpin = 0, episodes = 0;
            boolean inSpin = false;
            // How many spins a number of walks covers depends on how fast each side runs: walk until
            // enough spins were seen, with a bound on walks only as a guard against a stuck target.
            for (int i = 0; i < 5_000_000 && (episodes < 5 || spinning <= 1000); i++) {
                long below = marked.stats().framesBelowMarker();
                Optional<String> stack = ChurnStacks.mainStack(marked, MAIN);
                long reused = marked.stats().framesBelowMarker() - below;
                boolean wasInSpin = inSpin;
                inSpin = stack.equals(Optional.of("<module>|main|spin"));
                if (inSpin) {
                    spinning++;
                    if (!wasInSpin) {
                        episodes++;
                    }
                    // settle() left the marker on main() when it returned; walks that find it there
                    // read spin() and its second copy each time, until the marker moves up.
                    if (reused > 0 && reused < spinPosition) {
                        markerBelowSpin++;
                    }
                }
            }
            assertThat(spinning).as("walks in spin()").isGreaterThan(1000);
            assertThat(markerBelowSpin).as("walks in spin() with the marker below it, of %d", spinning)
                    .isLessThan(spinning / 10);
            // However fast target and walks run: each time spin() starts, a few walks find the marker
            // below it before it moves up.
            assertThat(episodes).as("times a walk found spin() newly started").isGreaterThanOrEqualTo(5);
            assertThat(markerBelowSpin).as("walks with the marker below spin(), in %d spins", episodes)
                    .isLessThanOrEqualTo(4 * episodes);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("markerInterpreters")
    void aShortFunctionCalledInALoopDoesNotDrawAWriteEveryWalk(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-marker-");
             ChurnStacks.Running target = ChurnStacks.start(python, dir, "short_calls.py");
             RemoteMemory memory = VmReadvMemory.open(target.pid())) {
            PythonProcess marked = marked(target, memory);
            WalkStats before = marked.stats();
            for (int i = 0; i < 20_000; i++) {
                marked.snapshot(MAIN);
            }
            WalkStats after = marked.stats();
            // Walk after walk finds short() at the same address, each time a new call that is gone
            // before the next walk; moving the marker onto it every time would cost a write and two
            // reads per walk (a quarter to a half of the walks here, when tried).
            long walks = after.snapshots() - before.snapshots();
            assertThat(after.markerWrites() - before.markerWrites()).as("marker writes in %d walks", walks)
                    .isPositive().isLessThan(walks / 20);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("markerInterpreters")
    void attachWithTheMarkerProfilesOnlyPossibleStacks(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-marker-");
             ChurnStacks.Running target = DEEP_CHURN.start(python, dir)) {
            Path out = dir.host("marked.collapsed");
            RemoraCli run = RemoraCli.run("attach", "-d", "1", "-r", "5khz", "--frame-marker", "--collapsed", "-o", out,
                    target.pid());
            assertThat(run.exitCode()).as(run.err()).isZero();
            List<String> stacks = new ArrayList<>();
            for (String line : Files.readAllLines(out)) {
                String stack = line.substring(0, line.lastIndexOf(' '));
                long count = Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
                // Collapsed frames read "file:function:line"; keep the function.
                String functions = java.util.Arrays.stream(stack.split(";")).skip(1)
                        .map(f -> f.split(":")[1]).collect(java.util.stream.Collectors.joining("|"));
                for (long i = 0; i < count; i++) {
                    stacks.add(functions);
                }
            }
            // How many samples a second gives depends on the machine; that every one is possible does not.
            assertThat(stacks).isNotEmpty();
            assertThat(DEEP_CHURN.impossible(stacks)).hasSizeLessThanOrEqualTo(Math.max(1, stacks.size() / 1000));
        }
    }

    /**
     * CPython moves the marker onto the entry frame under a Python function called from C, and leaves
     * it there when that entry frame goes; the next callback at the same depth has an entry frame at
     * the same address. Frames below such a marker must not be taken for the last stack's.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("markerCases")
    void aMarkerLeftOnAnEntryFrameSplicesNothing(TargetInterpreter python, String backend) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-marker-");
             ChurnStacks.Running target = ChurnStacks.start(python, dir, "marker_callbacks.py");
             RemoteMemory memory = open(backend, target.pid())) {
            PythonProcess marked = marked(target, memory);
            List<String> keyed = new ArrayList<>();
            // Until enough walks found a key function running, however the target is scheduled.
            for (int i = 0; i < 4000 || i < 40_000 && keyed.size() <= 200; i++) {
                ChurnStacks.mainStack(marked, MAIN).filter(s -> s.endsWith("|ka") || s.endsWith("|kb"))
                        .ifPresent(keyed::add);
            }
            assertThat(keyed).as("samples inside a key function").hasSizeGreaterThan(200);
            List<String> spliced = keyed.stream().filter(s -> !s.endsWith("step_a|ka") && !s.endsWith("step_b|kb")).toList();
            assertThat(spliced).as("key functions under the other caller").isEmpty();
            assertThat(marked.stats().markerWalks()).as("walks that reused frames below the marker").isPositive();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("olderInterpreters")
    void olderPythonsHaveNoMarker(TargetInterpreter python) throws Exception {
        try (ScratchDir dir = ScratchDir.create(python, "remora-it-marker-");
             ChurnStacks.Running target = DEEP_CHURN.start(python, dir);
             RemoteMemory memory = ProcMemMemory.open(target.pid())) {
            PythonProcess process = PythonProcess.attach(ProcfsProcessImage.of(target.pid()), memory);
            assertThatThrownBy(process::useFrameMarkers).isInstanceOf(InspectionException.Unsupported.class)
                    .hasMessageContaining("3.15");
        }
    }

    @Test
    void theMarkerInterpretersAreProvisioned() {
        assertThat(markerInterpreters()).isNotEmpty();
        assertThat(olderInterpreters()).isNotEmpty();
    }

    /** Every sample's stack, root first, joined by "|". */
    private static List<String> stacks(Profile profile) {
        List<String> stacks = new ArrayList<>();
        CallTree tree = profile.tree();
        for (int s = 0; s < profile.samples().size(); s++) {
            List<String> functions = new ArrayList<>();
            for (int frame : tree.path(profile.samples().node(s))) {
                functions.add(profile.frames().get(frame).function());
            }
            stacks.add(String.join("|", functions));
        }
        return stacks;
    }
}
