package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.ProfileFixture;
import dev.remora.app.output.profile.Python;
import dev.remora.app.output.profile.Stacks;
import dev.remora.app.output.profile.pstats.PstatsTable.SortKey;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMode;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.remora.app.output.profile.ProfileFixture.frame;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PstatsTableTest {

    private static final String LEGEND = """

            Legend:
              nsamples: Direct/Cumulative samples (direct executing / on call stack)
              sample%: Percentage of total samples this function was directly executing
              tottime: Estimated total time spent directly in this function
              cumul%: Percentage of total samples when this function was on the call stack
              cumtime: Estimated cumulative time (including time in called functions)
              filename:lineno(function): Function location and name
            """;

    static String print(PstatsTable table, Profile profile) {
        StringWriter text = new StringWriter();
        table.print(profile, new PrintWriter(text));
        return text.toString();
    }

    @Test
    void cpythonStyleIsCpythonsTextExactly() {
        String expected = """
                Profile Stats:
                       nsamples   sample%  tottime (ms)    cumul%  cumtime (ms)  filename:lineno(function)
                            4/4      50.0         4.000      50.0         4.000  t.py:23(sleeper)
                            2/2      25.0         2.000      25.0         2.000  ~:0(<GC>)
                            1/3      12.5         1.000      37.5         3.000  t.py:17(gcwork)
                            1/1      12.5         1.000      12.5         1.000  r.py:5(rec)
                            0/3       0.0         0.000      37.5         3.000  t.py:30(main)
                            0/6       0.0         0.000      75.0         6.000  t.py:40(<module>)
                            0/3       0.0         0.000      37.5         3.000  t.py:31(main)
                            0/1       0.0         0.000      12.5         1.000  r.py:9(rec)
                            0/2       0.0         0.000      25.0         2.000  r.py:2(run)
                """ + LEGEND + """

                Summary of Interesting Functions:

                Functions with Highest Direct/Cumulative Ratio (Hot Spots):
                  1.000 direct/cumulative ratio, 50.0% direct samples: t.py:(sleeper)
                  1.000 direct/cumulative ratio, 25.0% direct samples: ~:(<GC>)
                  0.500 direct/cumulative ratio, 12.5% direct samples: r.py:(rec)

                Functions with Highest Call Frequency (Indirect Calls):
                  6 indirect calls, 75.0% total stack presence: t.py:(main)
                  6 indirect calls, 75.0% total stack presence: t.py:(<module>)
                  2 indirect calls, 37.5% total stack presence: t.py:(gcwork)

                Functions with Highest Call Magnification (Cumulative/Direct):
                  3.0x call magnification, 2 indirect calls from 1 direct: t.py:(gcwork)
                  2.0x call magnification, 1 indirect calls from 1 direct: r.py:(rec)
                """;
        assertThat(print(new PstatsTable(PstatsTable.DEFAULT_SORT, PstatsTable.DEFAULT_LIMIT), Stacks.small())).isEqualTo(expected);
    }

    @Test
    void remorasStyleShowsOneUnitToTheIntervalAndASummaryInSamples() {
        String table = print(new PstatsTable(PstatsTable.DEFAULT_SORT, PstatsTable.DEFAULT_LIMIT, true, PstatsRows.FUNCTIONS,
                TableStyle.REMORA), Stacks.small());
        assertThat(table).isEqualTo("""
                Profile Stats:
                       nsamples   sample%  tottime (ms)    cumul%  cumtime (ms)  filename:lineno(function)
                            4/4      50.0             4      50.0             4  t.py:23(sleeper)
                            2/2      25.0             2      25.0             2  ~:0(<GC>)
                            1/3      12.5             1      37.5             3  t.py:17(gcwork)
                            1/1      12.5             1      12.5             1  r.py:5(rec)
                            0/3       0.0             0      37.5             3  t.py:30(main)
                            0/6       0.0             0      75.0             6  t.py:40(<module>)
                            0/3       0.0             0      37.5             3  t.py:31(main)
                            0/1       0.0             0      12.5             1  r.py:9(rec)
                            0/2       0.0             0      25.0             2  r.py:2(run)
                """ + LEGEND + """

                Summary of Interesting Functions:

                Hot Spots (most samples in the function itself):
                  4 samples (50.0%) in it, 4 samples (50.0%) with its callees: t.py:(sleeper)
                  2 samples (25.0%) in it, 2 samples (25.0%) with its callees: ~:(<GC>)
                  1 sample (12.5%) in it, 3 samples (37.5%) with its callees: t.py:(gcwork)

                Most Samples in Callees:
                  6 samples (75.0%) in callees, on the stack in 75.0%: t.py:(main)
                  6 samples (75.0%) in callees, on the stack in 75.0%: t.py:(<module>)
                  2 samples (25.0%) in callees, on the stack in 37.5%: t.py:(gcwork)

                Most Time Passed on to Callees (Cumulative/Direct):
                  3.0x: 3 with its callees, 1 in it: t.py:(gcwork)
                  2.0x: 2 with its callees, 1 in it: r.py:(rec)
                """);
    }

    @Test
    void remorasStyleShowsBothTimeColumnsInOneUnitToThePrecisionOfTheInterval() {
        // 1.5 s and 2 ms at 1 ms: both in seconds, to the millisecond.
        Profile mixed = new ProfileFixture(ProfileMode.WALL, 1_000_000)
                .repeat(2, 1, frame("f", "/a.py", 1)).repeat(1500, 1, frame("g", "/a.py", 2), frame("f", "/a.py", 1)).finish();
        assertThat(rows(print(remoras(), mixed))).containsExactly(
                "      1500/1500      99.9         1.500      99.9         1.500  a.py:2(g)",
                "         2/1502       0.1         0.002     100.0         1.502  a.py:1(f)");
        // 500 µs at 100 µs: whole microseconds.
        Profile micro = new ProfileFixture(ProfileMode.WALL, 100_000)
                .repeat(5, 1, frame("f", "/a.py", 1), frame("g", "/a.py", 2)).finish();
        assertThat(print(remoras(), micro)).contains("""
                       nsamples   sample%  tottime (\u03bcs)    cumul%  cumtime (\u03bcs)  filename:lineno(function)
                            5/5     100.0           500     100.0           500  a.py:1(f)
                            0/5       0.0             0     100.0           500  a.py:2(g)
                """);
        // 50 ms at 10 kHz: a tenth of a millisecond.
        Profile fast = new ProfileFixture(ProfileMode.WALL, 100_000)
                .repeat(500, 1, frame("f", "/a.py", 1)).finish();
        assertThat(rows(print(remoras(), fast))).containsExactly(
                "        500/500     100.0          50.0     100.0          50.0  a.py:1(f)");
    }

    private static PstatsTable remoras() {
        return new PstatsTable(SortKey.nsamples, 15, false, PstatsRows.FUNCTIONS, TableStyle.REMORA);
    }

    @Test
    void everySortKeyOrdersRowsAsCpythonDoes() {
        Profile p = Stacks.small();
        assertThat(labels(p, SortKey.nsamples)).containsExactly("t.py:23(sleeper)", "~:0(<GC>)", "t.py:17(gcwork)",
                "r.py:5(rec)", "t.py:30(main)", "t.py:40(<module>)", "t.py:31(main)", "r.py:9(rec)", "r.py:2(run)");
        assertThat(labels(p, SortKey.tottime)).isEqualTo(labels(p, SortKey.nsamples));
        assertThat(labels(p, SortKey.sample_pct)).isEqualTo(labels(p, SortKey.nsamples));
        assertThat(labels(p, SortKey.nsamples_cumul)).containsExactly("t.py:40(<module>)", "t.py:23(sleeper)", "t.py:30(main)",
                "t.py:17(gcwork)", "t.py:31(main)", "~:0(<GC>)", "r.py:2(run)", "r.py:5(rec)", "r.py:9(rec)");
        assertThat(labels(p, SortKey.cumtime)).isEqualTo(labels(p, SortKey.nsamples_cumul));
        assertThat(labels(p, SortKey.cumul_pct)).isEqualTo(labels(p, SortKey.nsamples_cumul));
        // str((file, line, name)): '1' sorts before '9' whatever the number, and '~' after letters.
        assertThat(labels(p, SortKey.name)).containsExactly("r.py:2(run)", "r.py:5(rec)", "r.py:9(rec)", "t.py:17(gcwork)",
                "t.py:23(sleeper)", "t.py:30(main)", "t.py:31(main)", "t.py:40(<module>)", "~:0(<GC>)");
    }

    @Test
    void limitKeepsTheFirstRowsAfterSortingAndPercentagesStayOfAllSamples() {
        String table = print(new PstatsTable(SortKey.nsamples_cumul, 2), Stacks.small());
        assertThat(rows(table)).containsExactly(
                "            0/6       0.0         0.000      75.0         6.000  t.py:40(<module>)",
                "            4/4      50.0         4.000      50.0         4.000  t.py:23(sleeper)");
        // Summary is of the kept rows only.
        assertThat(table).contains("Hot Spots):\n  1.000 direct/cumulative ratio, 50.0% direct samples: t.py:(sleeper)\n\n");
    }

    @Test
    void limitIsAPythonSliceBound() {
        assertThat(rows(print(new PstatsTable(SortKey.nsamples, -7), Stacks.small()))).hasSize(2);
        String none = print(new PstatsTable(SortKey.nsamples, 0), Stacks.small());
        assertThat(none).isEqualTo("""
                Profile Stats:
                       nsamples   sample%  tottime (\u03bcs)    cumul%  cumtime (\u03bcs)  filename:lineno(function)
                """ + LEGEND);
    }

    @Test
    void eachTimeColumnHasItsOwnUnitFromItsLargestShownValue() {
        Profile seconds = new ProfileFixture(ProfileMode.WALL, 2_000_000_000L)
                .sample(1, frame("f", "/a.py", 1)).finish();
        assertThat(rows(print(new PstatsTable(SortKey.nsamples, 15, false), seconds)))
                .containsExactly("            1/1     100.0         2.000     100.0         2.000  a.py:1(f)");
        assertThat(print(new PstatsTable(SortKey.nsamples, 15), seconds)).contains("   tottime (s)    cumul%   cumtime (s)  ");

        Profile micro = new ProfileFixture(ProfileMode.WALL, 100_000)
                .repeat(5, 1, frame("f", "/a.py", 1), frame("g", "/a.py", 2)).finish();
        assertThat(print(new PstatsTable(SortKey.nsamples, 15), micro)).contains("""
                       nsamples   sample%  tottime (\u03bcs)    cumul%  cumtime (\u03bcs)  filename:lineno(function)
                            5/5     100.0       500.000     100.0       500.000  a.py:1(f)
                            0/5       0.0         0.000     100.0       500.000  a.py:2(g)
                """);

        Profile mixed = new ProfileFixture(ProfileMode.WALL, 1_000_000)
                .repeat(1500, 1, frame("f", "/a.py", 1))
                .sample(1, frame("g", "/a.py", 2), frame("f", "/a.py", 9)).finish();
        // Only the kept row counts: with limit 1, g's tiny time does not matter, f's 1.5 s does.
        assertThat(rows(print(new PstatsTable(SortKey.nsamples, 1), mixed)))
                .containsExactly("      1500/1500      99.9         1.500      99.9         1.500  a.py:1(f)");
        assertThat(rows(print(new PstatsTable(SortKey.nsamples, 2), new ProfileFixture(ProfileMode.WALL, 1_000_000)
                .repeat(2, 1, frame("f", "/a.py", 1)).repeat(1200, 1, frame("g", "/a.py", 2), frame("f", "/a.py", 1)).finish())))
                .containsExactly("      1200/1200      99.8         1.200      99.8         1.200  a.py:2(g)",
                        "         2/1202       0.2         0.002     100.0         1.202  a.py:1(f)");
    }

    @Test
    void roundingIsPythonsHalfToEvenOnTheExactValue() {
        // 1/8 of 100 is 12.5 exactly; 1/16 is 6.25, which Python shows as 6.2 (Java's %.1f says 6.3).
        ProfileFixture f = new ProfileFixture();
        f.sample(1, frame("one", "/a.py", 1));
        f.repeat(15, 1, frame("rest", "/a.py", 2));
        assertThat(rows(print(new PstatsTable(SortKey.nsamples, 15, false), f.finish())))
                .containsExactly("          15/15      93.8        15.000      93.8        15.000  a.py:2(rest)",
                        "            1/1       6.2         1.000       6.2         1.000  a.py:1(one)");
    }

    @Test
    void emptyProfileSaysSoAndExplainsCpuMode() {
        assertThat(print(new PstatsTable(SortKey.nsamples, 15), Stacks.empty(ProfileMode.WALL)))
                .isEqualTo("No samples were collected.\n");
        assertThat(print(new PstatsTable(SortKey.nsamples, 15), Stacks.empty(ProfileMode.CPU)))
                .isEqualTo("No samples were collected.\nThis can happen in CPU mode when all threads are idle.\n");
    }

    @Test
    void summaryCanBeLeftOut() {
        assertThat(print(new PstatsTable(SortKey.nsamples, 15, false), Stacks.small()))
                .endsWith(LEGEND).doesNotContain("Summary");
    }

    @Test
    void sortKeysAreSpelledAsOnCpythonsCommandLine() {
        assertThat(Arrays.stream(SortKey.values()).map(SortKey::option))
                .containsExactly("nsamples", "tottime", "cumtime", "sample-pct", "cumul-pct", "nsamples-cumul", "name");
        for (SortKey k : SortKey.values()) {
            assertThat(SortKey.fromOption(k.option())).isSameAs(k);
        }
        assertThatThrownBy(() -> SortKey.fromOption("sample_pct")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sample-pct");
        assertThatThrownBy(() -> SortKey.fromOption(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRowIsAFunctionAtItsFirstLineOrAtEachLineItExecuted() {
        // main (def at line 10) calls work at line 12 three times and at line 13 once; work (def at 20) runs at 21 and 22.
        dev.remora.domain.model.FrameInfo main12 = code("main", 12, 10);
        dev.remora.domain.model.FrameInfo main13 = code("main", 13, 10);
        Profile p = new ProfileFixture(ProfileMode.WALL, 1_000_000)
                .repeat(2, 1, code("work", 21, 20), main12)
                .repeat(1, 1, code("work", 22, 20), main12)
                .repeat(1, 1, code("work", 21, 20), main13)
                .finish();

        List<String> functions = rows(print(new PstatsTable(SortKey.nsamples, 100, false, PstatsRows.FUNCTIONS), p));
        assertThat(functions).hasSize(2);
        assertThat(functions.getFirst()).startsWith("            4/4").endsWith("app.py:20(work)");
        assertThat(functions.get(1)).startsWith("            0/4").contains("     100.0  ").endsWith("app.py:10(main)");
        assertThat(rows(print(new PstatsTable(SortKey.nsamples, 100, false, PstatsRows.EXECUTING_LINES), p)))
                .extracting(row -> row.substring(row.lastIndexOf("  ") + 2))
                .containsExactly("app.py:21(work)", "app.py:22(work)", "app.py:12(main)", "app.py:13(main)");
    }

    private static dev.remora.domain.model.FrameInfo code(String function, int line, int firstLine) {
        return dev.remora.domain.model.FrameInfo.ofCode(function, "/src/app.py", frame(function, "/src/app.py", line).location(), firstLine);
    }

    /** The labels of the rows, in order. */
    private static List<String> labels(Profile p, SortKey sort) {
        List<String> labels = new ArrayList<>();
        for (String row : rows(print(new PstatsTable(sort, 100, false), p))) {
            labels.add(row.substring(row.lastIndexOf("  ") + 2));
        }
        return labels;
    }

    /** The table's data lines: after the heading, up to the blank line before the legend. */
    private static List<String> rows(String table) {
        List<String> lines = List.of(table.split("\n", -1));
        return lines.subList(2, lines.indexOf(""));
    }
}
