package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.ProfileFixture;
import dev.remora.app.output.profile.Python;
import dev.remora.app.output.profile.Stacks;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import static dev.remora.app.output.profile.ProfileFixture.frame;
import static org.assertj.core.api.Assertions.assertThat;

/** pstats files read back by real Pythons: CPython 3.15 and the machine's older python3 (pstats.Stats, python -m pstats). */
@Tag("targets")
class PstatsWriterTest {

    /** repr() of the stats dict of {@link Stacks#small()}: written here by hand from the counting rules. */
    private static final String SMALL_REPR = "{"
            + "('/app/t.py', 23, 'sleeper'): (3, 3, 0.003, 0.003, {('/app/t.py', 30, 'main'): 3}), "
            + "('/app/t.py', 30, 'main'): (0, 3, 0.0, 0.003, {('/app/t.py', 40, '<module>'): 3}), "
            + "('/app/t.py', 40, '<module>'): (0, 6, 0.0, 0.006, {}), "
            + "('~', 0, '<GC>'): (2, 2, 0.002, 0.002, {('/app/t.py', 17, 'gcwork'): 2}), "
            + "('/app/t.py', 17, 'gcwork'): (1, 3, 0.001, 0.003, {('/app/t.py', 31, 'main'): 3}), "
            + "('/app/t.py', 31, 'main'): (0, 3, 0.0, 0.003, {('/app/t.py', 40, '<module>'): 3}), "
            + "('/lib/r.py', 5, 'rec'): (1, 1, 0.001, 0.001, {('/lib/r.py', 5, 'rec'): 1, ('/lib/r.py', 9, 'rec'): 1}), "
            + "('/lib/r.py', 9, 'rec'): (0, 1, 0.0, 0.001, {('/lib/r.py', 2, 'run'): 1}), "
            + "('/lib/r.py', 2, 'run'): (0, 2, 0.0, 0.002, {}), "
            + "('/other/t.py', 23, 'sleeper'): (1, 1, 0.001, 0.001, {('/lib/r.py', 2, 'run'): 1})}";

    private static final String PRINT_REPR = "import marshal, sys; print(ascii(marshal.load(open(sys.argv[1], 'rb'))))";

    static byte[] bytes(Profile profile) {
        try {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new PstatsWriter(PstatsRows.EXECUTING_LINES).write(profile, out);
            return out.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void cpython315ReadsTheStatsDict() throws Exception {
        try (Python python = Python.cpython315()) {
            String file = python.put("small.pstats", bytes(Stacks.small()));
            assertThat(python.run(PRINT_REPR, file)).isEqualTo(SMALL_REPR + "\n");
        }
    }

    @Test
    void hostPythonReadsTheStatsDict() throws Exception {
        try (Python python = Python.host()) {
            String file = python.put("small.pstats", bytes(Stacks.small()));
            assertThat(python.run(PRINT_REPR, file)).isEqualTo(SMALL_REPR + "\n");
        }
    }

    @Test
    void cpython315sPstatsLoadsAndBrowsesIt() throws Exception {
        try (Python python = Python.cpython315()) {
            assertLoadsAndBrowses(python);
            String file = python.put("varied.pstats", bytes(Stacks.varied(ProfileMode.WALL)));
            String sampled = python.run("""
                    import io, pstats, sys
                    pstats.SampledStats(sys.argv[1], stream=io.StringIO()).sort_stats('nsamples').print_stats(5)
                    print("ok")
                    """, file);
            assertThat(sampled).isEqualTo("ok\n");
        }
    }

    @Test
    void hostPythonsPstatsLoadsAndBrowsesIt() throws Exception {
        // The machine's python3 is older than 3.15: python3 -m pstats FILE must work there too.
        try (Python python = Python.host()) {
            assertLoadsAndBrowses(python);
        }
    }

    private static void assertLoadsAndBrowses(Python python) {
        String file = python.put("varied.pstats", bytes(Stacks.varied(ProfileMode.WALL)));
        String out = python.run("""
                import io, pstats, sys
                s = pstats.Stats(sys.argv[1], stream=io.StringIO())
                s.strip_dirs().sort_stats('tottime').print_stats(5)
                s.print_callers(3)
                print(type(s).__name__, s.prim_calls, s.total_calls)
                """, file);
        // prim_calls adds up direct samples: one per sampled stack.
        assertThat(out).isEqualTo("Stats 1648 " + sumOfCumulative(python, file) + "\n");

        String browser = python.module("pstats", "strip\nsort tottime\nstats 3\nquit\n", file);
        assertThat(browser).contains("(1648 primitive calls)", "ncalls  tottime  percall  cumtime  percall filename:lineno(function)",
                "      900    0.900    0.001    0.900    0.001 t.py:23(sleeper)");
    }

    @Test
    void namesOutsideAsciiAndLargeCountsSurviveBothPythons() throws Exception {
        FrameInfo leaf = frame("caf\u00e9.\u505c\u6b62.\uD801\uDC00", "/srv/\u00e9\u505c\uD801\uDC00.py", 7);
        FrameInfo root = frame("root", "/srv/" + "x".repeat(300) + ".py", 1);
        ProfileFixture f = new ProfileFixture(ProfileMode.WALL, 1_000_000);
        f.repeat(40_000, 1, leaf, root);
        Profile profile = f.finish();
        String expected = "{('/srv/\\xe9\\u505c\\U00010400.py', 7, 'caf\\xe9.\\u505c\\u6b62.\\U00010400'): (40000, 40000, 40.0, 40.0, "
                + "{('/srv/" + "x".repeat(300) + ".py', 1, 'root'): 40000}), "
                + "('/srv/" + "x".repeat(300) + ".py', 1, 'root'): (0, 40000, 0.0, 40.0, {})}\n";
        for (Python python : new Python[] {Python.cpython315(), Python.host()}) {
            try (python) {
                assertThat(python.run(PRINT_REPR, python.put("big.pstats", bytes(profile)))).isEqualTo(expected);
            }
        }
    }

    @Test
    void manyKeysInFirstSeenOrder() throws Exception {
        ProfileFixture f = new ProfileFixture();
        FrameInfo root = new FrameInfo("<module>", "/m.py", SourceLocation.NONE);
        for (int i = 0; i < 3000; i++) {
            f.sample(1, frame("f" + i, "/m.py", i + 1), root);
        }
        try (Python python = Python.host()) {
            String out = python.run("""
                    import marshal, sys
                    d = marshal.load(open(sys.argv[1], 'rb'))
                    keys = list(d)
                    assert keys[0] == ('/m.py', 1, 'f0') and keys[1] == ('/m.py', 0, '<module>'), keys[:2]
                    assert keys[2:3001] == [('/m.py', i + 1, 'f%d' % i) for i in range(1, 3000)]
                    assert d[('/m.py', 0, '<module>')][:2] == (0, 3000)
                    assert d[('/m.py', 2999, 'f2998')] == (1, 1, 0.001, 0.001, {('/m.py', 0, '<module>'): 1})
                    print(len(d))
                    """, python.put("many.pstats", bytes(f.finish())));
            assertThat(out).isEqualTo("3001\n");
        }
    }

    private static long sumOfCumulative(Python python, String file) {
        return Long.parseLong(python.run(
                "import marshal, sys; d = marshal.load(open(sys.argv[1], 'rb')); print(sum(v[1] for v in d.values()))",
                file).strip());
    }
}
