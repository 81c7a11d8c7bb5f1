package dev.remora.domain.profile;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.StackProblem;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Two processes' profiles made one: every sample kept, in time order, under its process's root frame. */
class ProfileMergerTest {

    private static FrameInfo frame(String function) {
        return new FrameInfo(function, "/app/" + function + ".py", SourceLocation.NONE);
    }

    private static Profile profile(int pid, long startMillis, long threadId, String function, long... times) {
        ProfileBuilder builder = new ProfileBuilder(new ProfileInfo(pid, "3.15.0", "vmreadv", ProfileMode.WALL, 1_000_000, startMillis));
        for (long time : times) {
            builder.beginSample(time);
            builder.beginThread(1, threadId, 0);
            builder.frame(frame(function));
            builder.frame(frame("main"));
            builder.endThread(Optional.empty());
        }
        builder.beginSample(999);
        builder.beginThread(1, threadId, 0);
        builder.endThread(Optional.of(StackProblem.of(StackProblem.Kind.MOVED, "moved")));
        builder.profile().threads().name(0, "worker-" + pid);
        builder.finish(new SamplingStats(times.length + 1, times.length, builder.errors(), 0, 5_000_000));
        return builder.profile();
    }

    /** Each sample's stack, outermost first, as frame names. */
    private static List<String> stacks(Profile profile) {
        List<String> stacks = new ArrayList<>();
        for (int s = 0; s < profile.samples().size(); s++) {
            StringBuilder b = new StringBuilder();
            for (int id : profile.tree().path(profile.samples().node(s))) {
                b.append(b.isEmpty() ? "" : ";").append(profile.frames().get(id).function());
            }
            stacks.add(profile.samples().time(s) + " " + b);
        }
        return stacks;
    }

    @Test
    void everySampleComesUnderItsProcessInTimeOrder() {
        Profile parent = profile(10, 1000, 10, "serve", 0, 2_000_000);
        Profile child = profile(11, 1001, 11, "work", 0, 500_000);

        Profile merged = ProfileMerger.merge(List.of(new ProfileMerger.Part(parent, "python app.py"),
                new ProfileMerger.Part(child, "python -c work")), SampleKeeping.EVERY_SAMPLE);

        assertThat(stacks(merged)).containsExactly(
                "0 process 10: python app.py;main;serve",
                "1000000 process 11: python -c work;main;work",
                "1500000 process 11: python -c work;main;work",
                "2000000 process 10: python app.py;main;serve");
        assertThat(merged.info().pid()).isEqualTo(10);
        assertThat(merged.info().startEpochMillis()).isEqualTo(1000);
        SamplingStats stats = merged.stats();
        assertThat(stats.samples()).isEqualTo(4);
        assertThat(stats.ticks()).isEqualTo(6);
        assertThat(stats.errors().count(StackProblem.Kind.MOVED)).isEqualTo(2);
        assertThat(stats.elapsedNanos()).isEqualTo(6_000_000);
        assertThat(merged.threads().size()).isEqualTo(2);
        assertThat(merged.threads().get(1).name()).contains("worker-11");
        assertThat(merged.threads().get(0).processId()).hasValue(10);
        assertThat(merged.threads().get(1).processId()).hasValue(11);
    }

    @Test
    void aMergeThatKeepsCountsHoldsEachStackOnceWithAllItsSamples() {
        Profile parent = profile(10, 1000, 10, "serve", 0, 1_000_000, 2_000_000);
        Profile child = profile(11, 1000, 11, "work", 500_000, 1_500_000);

        Profile merged = ProfileMerger.merge(List.of(new ProfileMerger.Part(parent, "python app.py"),
                new ProfileMerger.Part(child, "python -c work")), SampleKeeping.COUNTS);

        // Folded: one entry per process's stack, at its first sample's time, with its count.
        assertThat(stacks(merged)).containsExactly(
                "0 process 10: python app.py;main;serve",
                "500000 process 11: python -c work;main;work");
        assertThat(merged.samples().weight(0)).isEqualTo(3);
        assertThat(merged.samples().weight(1)).isEqualTo(2);
        assertThat(merged.samples().total()).isEqualTo(5);
    }
}
