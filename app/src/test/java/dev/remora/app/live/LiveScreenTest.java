package dev.remora.app.live;

import dev.remora.app.output.profile.ProfileFixture;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.walk.SnapshotOptions;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.remora.app.output.profile.ProfileFixture.frame;
import static org.assertj.core.api.Assertions.assertThat;

/** What the live view counts and shows, from a known profile: own and total, recursion, sorting, threads, size. */
class LiveScreenTest {

    private static final FrameInfo MAIN = frame("main", "/a/app.py", 1);
    private static final FrameInfo REC = frame("rec", "/a/app.py", 5);
    private static final FrameInfo LEAF = frame("leaf", "/a/lib.py", 9);
    private static final LiveScreen.Header HEADER = new LiveScreen.Header(42, "3.15.2", "wall", 3, 1000, 0, 10, "",
            SnapshotOptions.Threads.ALL);

    private static List<String> screen(LiveScreen.Sort sort, int thread, int width, int height) {
        ProfileFixture f = new ProfileFixture();
        f.repeat(6, 1, LEAF, REC, REC, MAIN).repeat(2, 1, REC, MAIN).repeat(2, 2, MAIN);
        Profile p = f.finish();
        LiveTable table = new LiveTable();
        table.add(p, 0, p.samples().size());
        return LiveScreen.lines(HEADER, table.snapshot(p), new LiveScreen.View(sort, thread, false), 1_000_000, width, height);
    }

    @Test
    void ownIsTheInnermostFunctionAndTotalCountsARecursiveOneOnce() {
        List<String> lines = screen(LiveScreen.Sort.OWN, -1, 200, 50);
        assertThat(lines.subList(4, lines.size())).containsExactly(
                "  60.00%   60.00%      0.01s      0.01s  leaf (lib.py)",
                "  20.00%  100.00%      0.00s      0.01s  main (app.py)", // a tie goes to the larger total
                "  20.00%   80.00%      0.00s      0.01s  rec (app.py)");
        assertThat(lines.get(0)).isEqualTo("Remora top  pid 42  Python 3.15.2  wall mode  all threads");
    }

    @Test
    void withoutAllThreadsTheHeaderSaysTheMainThread() {
        LiveScreen.Header mainOnly = new LiveScreen.Header(42, "3.15.2", "wall", 3, 1000, 0, 10, "", SnapshotOptions.Threads.MAIN);
        assertThat(LiveScreen.lines(mainOnly, List.of(), new LiveScreen.View(LiveScreen.Sort.OWN, -1, false), 1_000_000, 200, 10)
                .getFirst()).endsWith("wall mode  main thread");
    }

    @Test
    void pausedShowsRightAfterTheTitle() {
        List<String> lines = LiveScreen.lines(HEADER, List.of(), new LiveScreen.View(LiveScreen.Sort.OWN, -1, true), 1_000_000, 200, 10);
        assertThat(lines.getFirst()).startsWith("Remora top  [paused]  pid 42");
    }

    @Test
    void theHeaderSaysWhyTicksGaveNoStack() {
        LiveScreen.Header failing = new LiveScreen.Header(42, "3.15.2", "wall", 3, 1000, 0.2, 10, "2 stack moved while read",
                SnapshotOptions.Threads.ALL);
        assertThat(LiveScreen.lines(failing, List.of(), new LiveScreen.View(LiveScreen.Sort.OWN, -1, false), 1_000_000, 200, 10)
                .get(2)).isEqualTo("Sampled: elapsed 3s  rate 1000 Hz  samples 10  errors 0.20%  (2 stack moved while read)");
    }

    @Test
    void sortsByTheChosenColumnFiltersAThreadAndFitsTheScreen() {
        assertThat(screen(LiveScreen.Sort.TOTAL, -1, 200, 50).get(4)).endsWith("main (app.py)");
        assertThat(screen(LiveScreen.Sort.FUNCTION, -1, 200, 50).get(4)).endsWith("leaf (lib.py)");
        List<String> second = screen(LiveScreen.Sort.OWN, 1, 200, 50);
        assertThat(second.get(0)).contains("thread 2");
        assertThat(second.subList(4, second.size())).containsExactly(" 100.00%  100.00%      0.00s      0.00s  main (app.py)");
        List<String> small = screen(LiveScreen.Sort.OWN, -1, 30, 5);
        assertThat(small).hasSize(5).allMatch(l -> l.length() <= 30);
    }

    @Test
    void theWholeRunsPercentagesAreThoseOfOneWindowOverEverySample() {
        ProfileFixture f = new ProfileFixture();
        f.repeat(6, 1, LEAF, REC, REC, MAIN).repeat(2, 1, REC, MAIN).repeat(2, 2, MAIN);
        Profile p = f.finish();
        LiveTable inOne = new LiveTable();
        inOne.add(p, 0, p.samples().size());
        LiveTable inTwo = new LiveTable();
        inTwo.add(p, 0, 6);
        inTwo.add(p, 6, p.samples().size());
        LiveScreen.View view = new LiveScreen.View(LiveScreen.Sort.OWN_TIME, -1, false);

        List<String> lastWindow = LiveScreen.lines(HEADER, inTwo.snapshot(p), view, 1_000_000, 200, 50);
        List<String> wholeRun = LiveScreen.lines(HEADER,
                inTwo.snapshot(p).stream().map(LiveTable.ThreadCounts::wholeRun).toList(), view, 1_000_000, 200, 50);

        assertThat(wholeRun).isEqualTo(LiveScreen.lines(HEADER, inOne.snapshot(p), view, 1_000_000, 200, 50));
        assertThat(lastWindow).isNotEqualTo(wholeRun);
    }
}
