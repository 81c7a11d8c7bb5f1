package dev.remora.app.profile;

import dev.remora.app.dump.RemoraCli;
import dev.remora.app.testing.ParkedTarget;
import dev.remora.app.testing.ParkedThreads;
import dev.remora.app.testing.TargetInterpreters;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The options that shape what a profile run prints: --no-summary, and --browser's one-line refusal. */
@Tag("targets")
class ProfileOutputOptionsTest {

    private static final String SUMMARY = "Summary of Interesting Functions";

    @Test
    void noSummaryLeavesTheSummaryOutOfThePstatsTable() throws Exception {
        try (ParkedTarget target = ParkedThreads.start(TargetInterpreters.all().getFirst())) {
            RemoraCli with = RemoraCli.run("attach", "-d", "0.3", target.pid());
            RemoraCli without = RemoraCli.run("attach", "-d", "0.3", "--no-summary", target.pid());
            assertThat(with.exitCode()).as(with.err()).isZero();
            assertThat(without.exitCode()).as(without.err()).isZero();
            assertThat(with.out()).contains(SUMMARY);
            assertThat(without.out()).doesNotContain(SUMMARY).contains("nsamples");
        }
    }

    @Test
    void cpythonTableGivesCpythonsWordingAndTheDefaultSpeaksOfSamples() throws Exception {
        try (ParkedTarget target = ParkedThreads.start(TargetInterpreters.all().getFirst())) {
            RemoraCli ours = RemoraCli.run("attach", "-d", "0.3", "-a", target.pid());
            RemoraCli cpython = RemoraCli.run("attach", "-d", "0.3", "-a", "--cpython-table", target.pid());
            assertThat(ours.exitCode()).as(ours.err()).isZero();
            assertThat(cpython.exitCode()).as(cpython.err()).isZero();
            assertThat(ours.out()).contains("Hot Spots (most samples in the function itself):").doesNotContain("calls");
            assertThat(cpython.out()).contains("Functions with Highest Direct/Cumulative Ratio (Hot Spots):")
                    .containsPattern(" \\d+\\.\\d{3}  ");
        }
    }

    @Test
    void browserGoesWithHtmlOutputs() {
        RemoraCli run = RemoraCli.run("attach", "--browser", "--collapsed", "1");
        assertThat(run.exitCode()).isEqualTo(2);
        assertThat(run.err().strip())
                .isEqualTo("remora: --browser opens HTML outputs: it goes with --flamegraph, --diff-flamegraph or --heatmap");
    }
}
