package dev.remora.app.profiling;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SamplingStats;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Listeners end on the run's final counts: the last tick comes after the last sample, before the last window. */
class SamplerLastTickTest {

    private static final long MS = 1_000_000L;
    private static final FrameInfo WORK = new FrameInfo("work", "/app/t.py", new SourceLocation(3, 3, 4, 20));

    @Test
    void theLastTickHasTheFinalCountsAndComesBeforeTheLastWindow() {
        FakeClock clock = new FakeClock(0);
        ProfileBuilder builder = new ProfileBuilder(new ProfileInfo(1, "3.15", "test", ProfileMode.WALL, MS, 0));
        List<String> events = new ArrayList<>();
        List<SamplerProgress> ticks = new ArrayList<>();
        Sampler.Source source = into -> {
            into.beginThread(0, 1, 0);
            into.frame(WORK);
            into.endThread(Optional.empty());
            clock.now += 10_000;
        };
        // 2.5 s of samples in windows of 1 s: the run ends half-way through a window and a tick.
        Sampler sampler = new Sampler(source, builder, new Sampler.Settings(MS, 2_500 * MS, 1_000 * MS), new SamplerListener() {
            @Override
            public void tick(Profile profile, SamplerProgress live) {
                ticks.add(live);
                events.add("tick");
            }

            @Override
            public void window(Profile profile, int from, int to) {
                events.add("window " + from + "-" + to);
            }
        }, clock);

        SamplingStats stats = sampler.run(() -> false, () -> true);

        SamplerProgress last = ticks.getLast();
        assertThat(last.samples()).isEqualTo(stats.samples()).isEqualTo(builder.profile().samples().size());
        assertThat(last.ticks()).isEqualTo(stats.ticks());
        assertThat(last.elapsedNanos()).isEqualTo(stats.elapsedNanos());
        assertThat(events.getLast()).startsWith("window ");
        assertThat(events.get(events.size() - 2)).isEqualTo("tick");
    }
}
