package dev.remora.domain.profile;

/** What a profile keeps of its samples as a run goes on. */
public enum SampleKeeping {
    /** Every sample with its time: what timelines (gecko, speedscope) need; memory grows with the run. */
    EVERY_SAMPLE,
    /**
     * Each window's samples until the window is handed on, then one entry per distinct stack, status
     * and instruction, with how many samples it stands for: memory bounded by what is distinct, not
     * by how long the run goes.
     */
    COUNTS
}
