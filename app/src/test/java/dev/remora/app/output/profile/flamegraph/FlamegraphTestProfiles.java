package dev.remora.app.output.profile.flamegraph;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.StackErrors;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/** Profiles for the flamegraph tests, recorded through the same builder the sampler feeds. */
final class FlamegraphTestProfiles {

    static final long MAIN_TID = 1001;
    static final long WORKER_TID = 1002;
    /** A function name that would break out of a script element or a string if it were not escaped. */
    static final String HOSTILE = "</script><script>alert(\"x\")</script> naïve_函数_😀\u2028";

    private final ProfileBuilder builder;
    private long now;

    private FlamegraphTestProfiles(ProfileInfo info) {
        this.builder = new ProfileBuilder(info);
    }

    static FlamegraphTestProfiles start(String pythonVersion) {
        return new FlamegraphTestProfiles(new ProfileInfo(4242, pythonVersion, "vmreadv", ProfileMode.WALL,
                1_000_000, 1_700_000_000_000L));
    }

    static FrameInfo frame(String function, String file, int line) {
        return new FrameInfo(function, file, new SourceLocation(line, line, 4, 20));
    }

    /** Records {@code times} samples of one stack, given outermost frame first. */
    FlamegraphTestProfiles sample(long tid, int times, FrameInfo... rootFirst) {
        for (int t = 0; t < times; t++) {
            builder.beginSample(now += 1_000_000);
            builder.beginThread(0, tid, 0);
            for (int i = rootFirst.length - 1; i >= 0; i--) {
                builder.frame(rootFirst[i]);
            }
            builder.endThread(Optional.empty());
        }
        return this;
    }

    /** Names the thread recorded {@code index}-th. */
    FlamegraphTestProfiles name(int index, String name) {
        builder.profile().threads().name(index, name);
        return this;
    }

    Profile finish() {
        int samples = builder.profile().samples().size();
        builder.finish(new SamplingStats(samples + 2, samples, StackErrors.of(StackProblem.Kind.WALK_FAILED, 2), 1, now));
        return builder.profile();
    }

    /**
     * Two named threads with known totals: main 100 samples (hot_leaf 60 under compute, compute 10
     * itself, io_wait 20, the hostile name 10) and worker 50 (hot_leaf 30, a callback under native code 20).
     */
    static Profile twoThreads() {
        FrameInfo main = frame("main", "/srv/app/app.py", 10);
        FrameInfo run = frame("App.run", "/srv/app/app.py", 20);
        FrameInfo compute = frame("compute", "/srv/app/calc.py", 5);
        FrameInfo hot = frame("hot_leaf", "/srv/app/calc.py", 50);
        FrameInfo worker = frame("worker_main", "/srv/app/worker.py", 3);
        FrameInfo loop = frame("loop", "/srv/app/worker.py", 9);
        return start("3.15.0a1")
                .sample(MAIN_TID, 60, main, run, compute, hot)
                .sample(MAIN_TID, 10, main, run, compute)
                .sample(MAIN_TID, 20, main, run, frame("io_wait", "/srv/app/net.py", 7))
                .sample(WORKER_TID, 30, worker, loop, hot)
                .sample(MAIN_TID, 10, main, frame(HOSTILE, "/srv/app/we\"ird <!-- dir>/x.py", 1))
                .sample(WORKER_TID, 20, worker, loop, PseudoFrames.NATIVE, frame("callback", "/srv/app/worker.py", 30))
                .name(0, "MainThread")
                .name(1, "worker \"<b>1</b>\"")
                .finish();
    }

    /** Random stacks over a small set of functions until the tree has about {@code nodes} nodes. */
    static Profile random(int nodes, int threads, long seed) {
        Random random = new Random(seed);
        List<FrameInfo> functions = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            functions.add(frame("module%d.Class%d.function_%d".formatted(i % 7, i % 13, i),
                    "/usr/lib/python3.15/site-packages/package%d/module%d.py".formatted(i % 5, i % 7), 10 + i));
        }
        FlamegraphTestProfiles recorder = start("3.15.0");
        while (recorder.builder.profile().tree().size() < nodes) {
            int depth = 3 + random.nextInt(25);
            FrameInfo[] stack = new FrameInfo[depth];
            for (int d = 0; d < depth; d++) {
                // Few choices near the root, like real programs: stacks share their outer frames.
                stack[d] = functions.get(random.nextInt(Math.min(functions.size(), 1 + d * 4)));
            }
            recorder.sample(7000 + random.nextInt(threads), 1 + random.nextInt(5), stack);
        }
        return recorder.finish();
    }
}
