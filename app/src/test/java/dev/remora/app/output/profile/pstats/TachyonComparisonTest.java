package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.Python;
import dev.remora.app.output.profile.Stacks;
import dev.remora.app.output.profile.collapsed.CollapsedWriter;
import dev.remora.app.output.profile.pstats.PstatsTable.SortKey;
import dev.remora.app.output.profile.pstats.TachyonReplay.Table;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The same samples through CPython 3.15's own profiler collectors and through Remora's writers: the
 * printed tables, the pstats dicts and the collapsed files must be the same.
 */
@Tag("targets")
class TachyonComparisonTest {

    private static Python python;

    @BeforeAll
    static void start() {
        python = Python.cpython315();
    }

    @AfterAll
    static void stop() throws Exception {
        python.close();
    }

    @Test
    void tablesMatchForEverySortKeyLimitAndSummary() {
        Profile profile = Stacks.varied(ProfileMode.WALL);
        List<Table> tables = new ArrayList<>();
        for (SortKey sort : SortKey.values()) {
            for (int limit : new int[] {15, 3, 100}) {
                tables.add(new Table(sort, limit, true));
            }
        }
        tables.add(new Table(SortKey.nsamples, 0, true));
        tables.add(new Table(SortKey.cumtime, -4, true));
        tables.add(new Table(SortKey.name, 100, false));
        TachyonReplay.Result tachyon = TachyonReplay.run(python, profile, tables);
        assertThat(tachyon.tables().split("=== table\n", -1)).hasSize(tables.size() + 1);
        assertThat(tachyon.tables()).contains("caf\u00e9.py:12(caf\u00e9.brew)", "~:0(<GC>)", "gen.py:0(synthetic)", "cumtime (s)");
        assertThat(TachyonReplay.remoraTables(profile, tables)).isEqualTo(tachyon.tables());
    }

    @Test
    void smallProfileTablesMatch() {
        List<Table> tables = List.of(new Table(SortKey.nsamples, 15, true), new Table(SortKey.name, 15, true),
                new Table(SortKey.cumul_pct, 4, true));
        Profile profile = Stacks.small();
        assertThat(TachyonReplay.remoraTables(profile, tables)).isEqualTo(TachyonReplay.run(python, profile, tables).tables());
    }

    @Test
    void emptyProfilesMatchInWallAndCpuMode() {
        List<Table> tables = List.of(new Table(SortKey.nsamples, 15, true));
        for (ProfileMode mode : List.of(ProfileMode.WALL, ProfileMode.CPU)) {
            Profile profile = Stacks.empty(mode);
            TachyonReplay.Result tachyon = TachyonReplay.run(python, profile, tables);
            assertThat(TachyonReplay.remoraTables(profile, tables)).isEqualTo(tachyon.tables());
            assertThat(collapsed(profile)).isEqualTo(tachyon.collapsed()).isEmpty();
        }
    }

    @Test
    void pstatsDictsAreEqualInContentAndOrder() throws IOException {
        for (Profile profile : List.of(Stacks.small(), Stacks.varied(ProfileMode.WALL))) {
            TachyonReplay.Result tachyon = TachyonReplay.run(python, profile, List.of());
            String theirs = python.put("theirs.pstats", tachyon.pstats());
            String ours = python.put("ours.pstats", PstatsWriterTest.bytes(profile));
            String result = python.run("""
                    import marshal, sys
                    a = marshal.load(open(sys.argv[1], 'rb'))
                    # CPython marks its files as sampled; ours leave the marker out so older pstats read them.
                    del a[('__sampled__',)]
                    b = marshal.load(open(sys.argv[2], 'rb'))
                    print(ascii(a))
                    print(ascii(b))
                    print(a == b, list(a) == list(b), all(list(a[k][4]) == list(b[k][4]) for k in a))
                    """, theirs, ours);
            String[] lines = result.split("\n");
            assertThat(lines[1]).isEqualTo(lines[0]);
            assertThat(lines[2]).isEqualTo("True True True");
        }
    }

    @Test
    void collapsedFilesAreEqual() throws IOException {
        for (Profile profile : List.of(Stacks.small(), Stacks.varied(ProfileMode.WALL))) {
            String tachyon = TachyonReplay.run(python, profile, List.of()).collapsed();
            assertThat(tachyon.lines().count()).isGreaterThanOrEqualTo(5);
            assertThat(collapsed(profile)).isEqualTo(tachyon);
        }
    }

    private static String collapsed(Profile profile) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new CollapsedWriter().write(profile, out);
            return out.toString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
