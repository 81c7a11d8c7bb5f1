package dev.remora.app.cli;

import dev.remora.domain.profile.SampleKeeping;

/** The profile formats, each with the file extension used when no output file is named. */
public enum OutputFormat {
    pstats("pstats"),
    collapsed("txt"),
    flamegraph("html"),
    speedscope("speedscope.json"),
    gecko("json"),
    pprof("pb.gz"),
    jsonl("jsonl"),
    binary("bin"),
    diff_flamegraph("html"),
    heatmap("html");

    private final String extension;

    OutputFormat(String extension) {
        this.extension = extension;
    }

    public String extension() {
        return extension;
    }

    /**
     * What a profile in this format keeps of its samples: timelines (gecko, speedscope) need each
     * sample's time; every other format is written from counts, so that a long run's memory stays as
     * large as what it saw is varied.
     */
    public SampleKeeping samplesKept() {
        return this == gecko || this == speedscope ? SampleKeeping.EVERY_SAMPLE : SampleKeeping.COUNTS;
    }

    /** The file written when none is named, as CPython's profiler names it: {@code flamegraph_PID.html}. */
    public String defaultFileName(int pid) {
        return "%s_%d.%s".formatted(name(), pid, extension);
    }
}
