package dev.remora.app.profiling;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.remora.app.profiling.SamplerPriority.Level.NORMAL;
import static dev.remora.app.profiling.SamplerPriority.Level.PROMPT;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the sampler asks to be woken promptly, and when it gives that up: on a clock that moves only
 * when it sleeps or walks, with walks that are held up when told.
 */
class SamplerPriorityTest {

    private static final long MS = 1_000_000L;
    private static final FrameInfo RUNNING = new FrameInfo("running", "/app/t.py", new SourceLocation(3, 3, 4, 20));

    /** Each level asked for, in order. */
    private static final class Recorded implements SamplerPriority {
        final List<Level> asked = new ArrayList<>();

        @Override
        public void set(Level level) {
            asked.add(level);
        }
    }

    /** Runs 100 ticks at 1 kHz; walks numbered in {@code slowWalks} take 5 ms, others 5 µs. */
    private static Recorded sample(long... slowWalks) {
        FakeClock clock = new FakeClock(60_000);
        Recorded priority = new Recorded();
        long[] walks = {0};
        Sampler.Source target = builder -> {
            builder.beginThread(0, 1, 0);
            builder.frame(RUNNING);
            builder.endThread(Optional.empty());
            long walk = walks[0]++;
            boolean slow = java.util.Arrays.stream(slowWalks).anyMatch(w -> w == walk);
            clock.now += slow ? 5 * MS : 5_000;
        };
        ProfileBuilder builder = new ProfileBuilder(new ProfileInfo(1, "3.15", "test", ProfileMode.WALL, MS, 0));
        new Sampler(target, builder, new Sampler.Settings(MS, 100 * MS, 1000 * MS), new SamplerListener() {}, priority, clock)
                .run(() -> false, () -> true);
        return priority;
    }

    @Test
    void aSamplerThatKeepsUpWaitsPromptlyThroughoutAndIsNormalAgainWhenItStops() {
        assertThat(sample().asked).containsExactly(PROMPT, NORMAL);
    }

    @Test
    void aSamplerBehindItsTicksCatchesUpAtNormalPriorityAndWaitsPromptlyOnceCaughtUp() {
        // The 10th walk takes 5 ms: the next ticks are taken back to back, then the sampler sleeps again.
        assertThat(sample(10).asked).containsExactly(PROMPT, NORMAL, PROMPT, NORMAL);
    }

    @Test
    void aWalkLateByLessThanATickDoesNotGiveUpPromptWakeups() {
        FakeClock clock = new FakeClock(900_000); // every sleep wakes 0.9 ms late, still within its tick
        Recorded priority = new Recorded();
        Sampler.Source target = builder -> clock.now += 5_000;
        ProfileBuilder builder = new ProfileBuilder(new ProfileInfo(1, "3.15", "test", ProfileMode.WALL, MS, 0));
        new Sampler(target, builder, new Sampler.Settings(MS, 100 * MS, 1000 * MS), new SamplerListener() {}, priority, clock)
                .run(() -> false, () -> true);
        assertThat(priority.asked).containsExactly(PROMPT, NORMAL);
    }
}
