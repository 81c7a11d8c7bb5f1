package dev.remora.app.profiling;

import dev.remora.domain.InspectionException;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SamplingStats;
import org.junit.jupiter.api.Test;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The sampler on a clock that moves only when it sleeps or walks: a target that is busy 70% of the
 * time, and a sampler that the busy target sometimes holds up, as on a machine with fewer cores than
 * runnable threads.
 */
class SamplerCatchUpTest {

    private static final long MS = 1_000_000L;
    private static final long INTERVAL = MS;
    private static final long CYCLE = 100 * MS;
    private static final long BUSY_PART = 70 * MS;
    private static final FrameInfo BUSY = new FrameInfo("busy", "/app/t.py", new SourceLocation(3, 3, 4, 20));
    private static final FrameInfo REST = new FrameInfo("rest", "/app/t.py", new SourceLocation(7, 7, 4, 20));

    /** By walk number and time: how long a walk is held up, or 0 when it takes its usual 5 µs. */
    private interface HeldUp {
        long nanos(long walk, long now);
    }

    /** Busy for the first 70 ms of every 100, resting the rest. */
    private static final class Target implements Sampler.Source {
        private final FakeClock clock;
        private final HeldUp heldUp;
        private long walks;

        Target(FakeClock clock, HeldUp heldUp) {
            this.clock = clock;
            this.heldUp = heldUp;
        }

        @Override
        public void sampleInto(ProfileBuilder builder) {
            long now = clock.now;
            builder.beginThread(0, 1, 0);
            builder.frame(now % CYCLE < BUSY_PART ? BUSY : REST);
            builder.endThread(Optional.empty());
            long held = heldUp.nanos(walks++, now);
            clock.now += held > 0 ? held : 5_000;
        }
    }

    private static Profile sample(FakeClock clock, HeldUp heldUp, long seconds) {
        return sample(new Target(clock, heldUp), clock, seconds);
    }

    private static Profile sample(Sampler.Source target, FakeClock clock, long seconds) {
        ProfileBuilder builder = new ProfileBuilder(new ProfileInfo(1, "3.15", "test", ProfileMode.WALL, INTERVAL, 0));
        Sampler sampler = new Sampler(target, builder,
                new Sampler.Settings(INTERVAL, seconds * 1000 * MS, 1000 * MS), new SamplerListener() {}, SamplerPriority.UNCHANGED, clock);
        sampler.run(() -> false, () -> true);
        return builder.profile();
    }

    private static double share(Profile profile, String function) {
        long hits = 0;
        for (int i = 0; i < profile.samples().size(); i++) {
            int frame = profile.tree().frame(profile.samples().node(i));
            if (profile.frames().get(frame).function().equals(function)) {
                hits++;
            }
        }
        return (double) hits / profile.samples().size();
    }

    @Test
    void gridPointsPassedWhileTheBusyTargetHeldTheSamplerUpAreSampledStill() {
        FakeClock clock = new FakeClock(60_000);
        // While the target is busy, every fourth walk is held up for 3 ms.
        Profile profile = sample(clock, (walk, now) -> now % CYCLE < BUSY_PART && walk % 4 == 0 ? 3 * MS : 0, 10);

        SamplingStats stats = profile.stats();
        assertThat(share(profile, "busy")).as("share of samples in the busy function").isCloseTo(0.70, within(0.01));
        assertThat(stats.missed()).isZero();
        assertThat(stats.ticks()).as("one sample per grid point of 10 s at 1 kHz").isBetween(9_990L, 10_010L);
    }

    @Test
    void aStallLongerThanTheCatchUpWindowIsCountedAsMissed() {
        FakeClock clock = new FakeClock(60_000);
        // Once, at the 1000th walk, the sampler is held up for 300 ms.
        Profile profile = sample(clock, (walk, now) -> walk == 1000 ? 300 * MS : 0, 3);

        long window = Sampler.CATCH_UP_NANOS / INTERVAL;
        SamplingStats stats = profile.stats();
        assertThat(stats.missed()).as("points more than the window behind").isBetween(300 - window - 2, 300 - window + 1);
        assertThat(stats.ticks() + stats.missed()).as("every grid point of 3 s, sampled or missed").isBetween(2_995L, 3_005L);
    }

    @Test
    void aStallThatEndsWithTheTargetGoneCountsItsGridPointsAsMissed() {
        FakeClock clock = new FakeClock(60_000);
        Target target = new Target(clock, (walk, now) -> walk == 300 ? 1000 * MS : 0);
        // After the stall, the next walk finds the target gone: no walk comes after to count the points.
        Sampler.Source goneAfterTheStall = builder -> {
            if (target.walks > 300) {
                throw new InspectionException.TargetGone("exited");
            }
            target.sampleInto(builder);
        };
        Profile profile = sample(goneAfterTheStall, clock, 30);

        SamplingStats stats = profile.stats();
        assertThat(stats.ticks()).isBetween(300L, 302L);
        assertThat(stats.ticks() + stats.missed()).as("every grid point up to the end, sampled or missed").isBetween(1_295L, 1_305L);
    }

    @Test
    void aRunOnTimeMissesNothingAtItsEnd() {
        FakeClock clock = new FakeClock(60_000);
        Profile profile = sample(clock, (walk, now) -> 0, 2);

        assertThat(profile.stats().missed()).isZero();
    }
}
