package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.domain.profile.Profile;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;

/**
 * A pstats file: the marshalled stats dict
 * {@code {(filename, lineno, funcname): (direct, cumulative, tottime, cumtime, {caller: count})}}, as
 * CPython 3.15's sampling profiler counts it. Unlike that profiler, it leaves out the
 * {@code ("__sampled__",)} marker key: pstats before 3.15 (and tools built on it, like snakeviz)
 * fail on that key, while without it every pstats reads the file.
 */
public final class PstatsWriter implements ProfileWriter {

    private final PstatsRows rows;

    /** Keyed by function, as cProfile keys its stats. */
    public PstatsWriter() {
        this(PstatsRows.FUNCTIONS);
    }

    public PstatsWriter(PstatsRows rows) {
        this.rows = rows;
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        BufferedOutputStream buffered = new BufferedOutputStream(out);
        MarshalWriter marshal = new MarshalWriter(buffered);
        marshal.beginDict();
        for (SampledStats.Entry e : SampledStats.of(profile, rows).entries()) {
            key(marshal, e.key);
            marshal.beginTuple(5);
            marshal.integer(e.direct);
            marshal.integer(e.cumulative);
            marshal.floating(e.tottime);
            marshal.floating(e.cumtime);
            marshal.beginDict();
            for (Map.Entry<PstatsKey, Long> caller : e.callers.entrySet()) {
                key(marshal, caller.getKey());
                marshal.integer(caller.getValue());
            }
            marshal.endDict();
        }
        marshal.endDict();
        buffered.flush();
    }

    private static void key(MarshalWriter marshal, PstatsKey key) throws IOException {
        marshal.beginTuple(3);
        marshal.string(key.file());
        marshal.integer(key.line());
        marshal.string(key.function());
    }
}
