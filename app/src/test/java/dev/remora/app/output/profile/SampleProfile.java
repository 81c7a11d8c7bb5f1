package dev.remora.app.output.profile;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.PseudoFrames;
import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.StackErrors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A small profile with what the writers must get right: three threads (one the main thread, one
 * unnamed), shared and distinct stacks, one function at two lines, pseudo frames, a frame without
 * line or column, names that need escaping, status changes for markers, and a dropped stack. The
 * expected counts are kept from the script itself, not read back from the profile.
 */
public final class SampleProfile {

    public static final int PID = 4242;
    public static final long INTERVAL = 10_000_000;
    public static final long START_EPOCH_MILLIS = 1_790_000_000_000L;
    public static final long MAIN = 1001;
    public static final long WORKER = 1002;
    public static final long ANONYMOUS = 1003;

    public static final FrameInfo MAIN_PY = frame("main", "/app/main.py", 10, 4);
    public static final FrameInfo COMPUTE = frame("Worker.compute", "/app/work.py", 20, 8);
    public static final FrameInfo COMPUTE_LATER = frame("Worker.compute", "/app/work.py", 21, 8);
    public static final FrameInfo NO_POSITION = new FrameInfo("inner", "/app/work.py", SourceLocation.NONE);
    public static final FrameInfo ODD_NAME = frame("<lambda>.\"quoted\"\\é\u0001", "/app/we\"ird.py", 3, 0);
    /** Only in a stack that could not be read to the end: must appear in no sample. */
    public static final FrameInfo DROPPED = frame("dropped", "/app/dropped.py", 1, 0);

    public static final int MAIN_STATUS = ThreadStatus.MAIN_THREAD.bit() | ThreadStatus.HAS_GIL.bit() | ThreadStatus.ON_CPU.bit();
    public static final int WAITING = ThreadStatus.GIL_REQUESTED.bit();
    public static final int NATIVE_ON_CPU = ThreadStatus.ON_CPU.bit();
    public static final int EXCEPTION = ThreadStatus.HAS_EXCEPTION.bit() | ThreadStatus.HAS_GIL.bit() | ThreadStatus.ON_CPU.bit();

    /** One thread's stack in one walk; frames innermost first, as the walker reports them. */
    public record Walk(int tick, long tid, int status, List<FrameInfo> frames) {}

    public static final List<Walk> WALKS = List.of(
            new Walk(0, MAIN, MAIN_STATUS, List.of(COMPUTE, MAIN_PY)),
            new Walk(0, WORKER, WAITING, List.of(NO_POSITION, MAIN_PY)),
            new Walk(1, MAIN, MAIN_STATUS, List.of(COMPUTE, MAIN_PY)),
            new Walk(1, WORKER, WAITING, List.of(NO_POSITION, MAIN_PY)),
            new Walk(2, MAIN, MAIN_STATUS, List.of(PseudoFrames.GC, COMPUTE, MAIN_PY)),
            new Walk(2, WORKER, NATIVE_ON_CPU, List.of(COMPUTE_LATER, PseudoFrames.NATIVE, MAIN_PY)),
            new Walk(2, ANONYMOUS, 0, List.of(ODD_NAME)),
            new Walk(3, MAIN, MAIN_STATUS, List.of(PseudoFrames.GC, COMPUTE, MAIN_PY)),
            new Walk(3, WORKER, EXCEPTION, List.of(NO_POSITION, MAIN_PY)),
            new Walk(4, MAIN, MAIN_STATUS, List.of(COMPUTE, MAIN_PY)),
            new Walk(4, WORKER, EXCEPTION, List.of(NO_POSITION, MAIN_PY)),
            new Walk(4, ANONYMOUS, 0, List.of(ODD_NAME)),
            new Walk(5, MAIN, MAIN_STATUS, List.of(MAIN_PY)),
            new Walk(5, WORKER, NATIVE_ON_CPU, List.of(COMPUTE_LATER, PseudoFrames.NATIVE, MAIN_PY)));

    public static final int TICKS = 6;

    private SampleProfile() {}

    public static Profile build() {
        return build(WALKS);
    }

    public static Profile build(List<Walk> walks) {
        ProfileBuilder builder = new ProfileBuilder(
                new ProfileInfo(PID, "3.15.2", "vmreadv", ProfileMode.WALL, INTERVAL, START_EPOCH_MILLIS));
        for (int tick = 0; tick < TICKS; tick++) {
            builder.beginSample(tick * INTERVAL);
            for (Walk walk : walks) {
                if (walk.tick() == tick) {
                    builder.beginThread(0, walk.tid(), walk.status());
                    walk.frames().forEach(builder::frame);
                    builder.endThread(Optional.empty());
                }
            }
            if (tick == 1) {
                builder.beginThread(0, MAIN, MAIN_STATUS);
                builder.frame(DROPPED);
                builder.endThread(Optional.of(StackProblem.of(StackProblem.Kind.UNREADABLE, "frame chain cut")));
            }
        }
        builder.finish(new SamplingStats(TICKS, builder.profile().samples().size(), StackErrors.of(StackProblem.Kind.UNREADABLE, 1), 0,
                (TICKS - 1) * INTERVAL));
        Profile profile = builder.profile();
        for (int t = 0; t < profile.threads().size(); t++) {
            long tid = profile.threads().get(t).threadId();
            if (tid == MAIN) {
                profile.threads().name(t, "MainThread");
            } else if (tid == WORKER) {
                profile.threads().name(t, "worker \"1\"");
            }
        }
        return profile;
    }

    /** Samples per thread and stack: "tid;outermost;...;innermost" by function name. */
    public static Map<String, Long> expectedCounts() {
        return WALKS.stream().collect(Collectors.groupingBy(
                w -> w.tid() + ";" + rootFirst(w.frames()), LinkedHashMap::new, Collectors.counting()));
    }

    public static String rootFirst(List<FrameInfo> innermostFirst) {
        List<String> names = new ArrayList<>();
        for (FrameInfo f : innermostFirst) {
            names.addFirst(f.function());
        }
        return String.join(";", names);
    }

    public static long samplesOf(long tid) {
        return WALKS.stream().filter(w -> w.tid() == tid).count();
    }

    private static FrameInfo frame(String function, String file, int line, int column) {
        return new FrameInfo(function, file, new SourceLocation(line, line, column, column + 5));
    }
}
