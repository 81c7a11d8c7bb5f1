package dev.remora.app.output.profile;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileMerger;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SampleKeeping;
import dev.remora.domain.model.StackProblem;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.StackErrors;

import java.util.List;
import java.util.Optional;

/** Hand-built profiles: each sample is one thread's stack, innermost frame first, one interval after the last. */
public final class ProfileFixture {

    public static final int PID = 4242;
    /** A status every mode keeps. */
    private static final int BUSY = ThreadStatus.HAS_GIL.bit() | ThreadStatus.ON_CPU.bit() | ThreadStatus.HAS_EXCEPTION.bit();

    private final ProfileBuilder builder;
    private final long intervalNanos;
    private long time;

    public ProfileFixture(ProfileMode mode, long intervalNanos) {
        this(PID, mode, intervalNanos);
    }

    public ProfileFixture(int pid, ProfileMode mode, long intervalNanos) {
        this(pid, mode, intervalNanos, SampleKeeping.EVERY_SAMPLE);
    }

    public ProfileFixture(int pid, ProfileMode mode, long intervalNanos, SampleKeeping keeping) {
        this.builder = new ProfileBuilder(new ProfileInfo(pid, "3.15.2", "vmreadv", mode, intervalNanos, 1_700_000_000_000L),
                keeping);
        this.intervalNanos = intervalNanos;
    }

    /** Ends a window, as the sampler does every second: a profile that keeps counts folds its samples. */
    public ProfileFixture window() {
        builder.windowHandedOn();
        return this;
    }

    /**
     * A merged process tree ({@code --merge}): process 100 with thread 7 in {@code serve}, process 200
     * with thread 8 in {@code work}.
     */
    public static Profile mergedTree() {
        Profile parent = new ProfileFixture(100, ProfileMode.WALL, 1_000_000).sample(7, frame("serve", "/a/app.py", 3)).finish();
        Profile child = new ProfileFixture(200, ProfileMode.WALL, 1_000_000).sample(8, frame("work", "/a/job.py", 5)).finish();
        return ProfileMerger.merge(List.of(new ProfileMerger.Part(parent, "python app.py"),
                new ProfileMerger.Part(child, "python job.py")), SampleKeeping.EVERY_SAMPLE);
    }

    /** Wall mode, 1 ms between samples. */
    public ProfileFixture() {
        this(ProfileMode.WALL, 1_000_000);
    }

    /** A frame at a line, with columns that differ per call so that equal keys can come from distinct frames. */
    public static FrameInfo frame(String function, String file, int line) {
        return new FrameInfo(function, file, new SourceLocation(line, line, 4, 12));
    }

    public static FrameInfo frame(String function, String file, int line, int column) {
        return new FrameInfo(function, file, new SourceLocation(line, line + 1, column, column + 3));
    }

    public ProfileFixture sample(long threadId, FrameInfo... innermostFirst) {
        return repeat(1, threadId, innermostFirst);
    }

    public ProfileFixture repeat(int times, long threadId, FrameInfo... innermostFirst) {
        for (int n = 0; n < times; n++) {
            builder.beginSample(time);
            time += intervalNanos;
            builder.beginThread(0, threadId, BUSY);
            for (FrameInfo f : innermostFirst) {
                builder.frame(f);
            }
            builder.endThread(Optional.empty());
        }
        return this;
    }

    /** The samples taken so far, still open for more (for streaming). */
    public Profile profile() {
        return builder.profile();
    }

    public Profile finish() {
        long samples = builder.profile().samples().total();
        builder.finish(new SamplingStats(samples + 2, samples, StackErrors.of(StackProblem.Kind.WALK_FAILED, 2), 1, time));
        return builder.profile();
    }
}
