package dev.remora.app.output.profile.gecko;

import dev.remora.domain.model.ThreadStatus;

import java.util.ArrayList;
import java.util.List;

/**
 * The interval markers of one thread, as CPython's gecko collector derives them from the status of
 * successive samples: a state (holding the GIL, on a CPU, running Python or native code, waiting for
 * the GIL, handling an exception, collecting garbage) becomes a marker from the sample where it was
 * first seen to the sample where it changed, or to the end of the profile.
 */
final class GeckoMarkers {

    static final int CATEGORY_GC = 3;
    static final int CATEGORY_GIL = 4;
    static final int CATEGORY_CPU = 5;
    static final int CATEGORY_CODE_TYPE = 6;
    static final int CATEGORY_EXCEPTION = 8;

    /** One finished interval; times in nanoseconds since the profile started. */
    record Marker(String name, int category, long startNanos, long endNanos) {}

    private final List<Marker> markers = new ArrayList<>();
    private final Track gil = new Track(CATEGORY_GIL);
    private final Track cpu = new Track(CATEGORY_CPU);
    private final Track code = new Track(CATEGORY_CODE_TYPE);
    private final Track gilWait = new Track(CATEGORY_GIL);
    private final Track exception = new Track(CATEGORY_EXCEPTION);
    private final Track gc = new Track(CATEGORY_GC);

    /** The thread's state at one of its samples, taken in time order. */
    void observe(int status, boolean collectingGarbage, long nanos) {
        boolean hasGil = ThreadStatus.HAS_GIL.in(status);
        // Where on-CPU cannot be told (a core file), claiming "Off CPU" would be wrong: no CPU state.
        boolean cpuKnown = !ThreadStatus.UNKNOWN.in(status);
        boolean onCpu = cpuKnown && ThreadStatus.ON_CPU.in(status);
        gil.observe(hasGil ? "Has GIL" : "No GIL", nanos);
        cpu.observe(cpuKnown ? (onCpu ? "On CPU" : "Off CPU") : null, nanos);
        code.observe(hasGil ? "Python Code" : onCpu ? "Native Code" : null, nanos);
        gilWait.observe(ThreadStatus.GIL_REQUESTED.in(status) ? "Waiting for GIL" : null, nanos);
        exception.observe(ThreadStatus.HAS_EXCEPTION.in(status) ? "Has Exception" : "No Exception", nanos);
        gc.observe(collectingGarbage ? "GC Collecting" : null, nanos);
    }

    /** Closes the states still open when the profile ended; returns every marker. */
    List<Marker> finish(long endNanos) {
        for (Track track : List.of(gil, cpu, code, gilWait, exception, gc)) {
            track.observe(null, endNanos);
        }
        return markers;
    }

    /** One state of a thread; {@code null} is "none of this track's states". */
    private final class Track {

        private final int category;
        private String current;
        private long since;

        Track(int category) {
            this.category = category;
        }

        void observe(String state, long nanos) {
            if (state != null && state.equals(current)) {
                return;
            }
            if (current != null) {
                markers.add(new Marker(current, category, since, nanos));
            }
            current = state;
            since = nanos;
        }
    }
}
