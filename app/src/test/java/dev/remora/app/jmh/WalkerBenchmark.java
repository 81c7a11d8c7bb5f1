package dev.remora.app.jmh;

import dev.remora.adapters.procmem.ProcfsProcessImage;
import dev.remora.adapters.vmreadv.VmReadvMemory;
import dev.remora.app.bench.Workload;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.domain.model.StackVisitor;
import dev.remora.domain.model.FrameInfo;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One sample's walk over a captured image of a real CPython process: the walker, caches and profile
 * aggregation without any system call. The target is a workload started with the Python named by
 * {@code -Dremora.python} (default: the provisioned Debian 3.15), captured, then stopped.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class WalkerBenchmark {

    @Param({"basic", "deep_static"})
    String workload;

    /** profile: a sampler's profile (it logs each sample); frames: the bare stack API, frames counted. */
    @Param({"profile", "frames"})
    String consumer;

    /** Whether the walks keep a frame marker (3.15): off reads every frame, on the frames above it. */
    @Param({"false", "true"})
    boolean marker;

    private Process target;
    private PythonProcess process;
    private ProfileBuilder builder;
    private final FrameCounter frames = new FrameCounter();
    private final SnapshotOptions walk = SnapshotOptions.of(SnapshotOptions.Threads.ALL);
    private long tick;

    @Setup(Level.Trial)
    public void capture() throws Exception {
        String python = System.getProperty("remora.python", "/var/cache/remora/bin/python3.15");
        target = new ProcessBuilder(List.of(python, "-c", Workload.valueOf(workload).source()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        Thread.sleep(1500);
        int pid = (int) target.pid();
        CapturedMemory memory = new CapturedMemory(VmReadvMemory.open(pid));
        process = PythonProcess.attach(ProcfsProcessImage.of(pid), memory);
        if (marker) {
            process.useFrameMarkers();
        }
        for (int i = 0; i < 3; i++) {
            process.snapshot(walk);
        }
        memory.freeze();
        target.destroyForcibly().waitFor();
        builder = new ProfileBuilder(new ProfileInfo(pid, process.version().toString(), "captured", ProfileMode.WALL, 1, 0));
    }

    @Benchmark
    public long sample() throws Exception {
        if (consumer.equals("frames")) {
            process.sample(walk, frames);
            return frames.count;
        }
        builder.beginSample(tick++);
        process.sample(walk, builder);
        return tick;
    }

    /** Counts what a walk hands out, keeping nothing. */
    static final class FrameCounter implements StackVisitor {
        long count;

        @Override
        public boolean beginThread(long interpreterId, long threadId, int status) {
            return true;
        }

        @Override
        public void frame(FrameInfo frame) {
            count++;
        }

        @Override
        public void tail(long tailId, FrameInfo[] outermostFirst, int frames) {
            count += frames;
        }

        @Override
        public void endThread(java.util.Optional<dev.remora.domain.model.StackProblem> problem) {
            count += problem.isPresent() ? 1 : 0;
        }
    }

    @TearDown(Level.Trial)
    public void stop() throws Exception {
        if (target != null) {
            target.destroyForcibly().waitFor();
        }
    }
}
