package dev.remora.domain.profile;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A sampling profile: the distinct frames, the tree of distinct stacks, the threads and every sample.
 * Writers read it; only {@link ProfileBuilder} changes it.
 */
public final class Profile {

    private final ProfileInfo info;
    private final FrameTable frames;
    private final CallTree tree;
    private final ThreadTable threads;
    private final SampleLog samples;
    private SamplingStats stats = SamplingStats.NONE;
    private final List<String> opcodeNames = new ArrayList<>();
    private final Map<String, Integer> opcodeIds = new HashMap<>();

    Profile(ProfileInfo info, FrameTable frames, CallTree tree, ThreadTable threads, SampleLog samples) {
        this.info = info;
        this.frames = frames;
        this.tree = tree;
        this.threads = threads;
        this.samples = samples;
    }

    public ProfileInfo info() {
        return info;
    }

    public FrameTable frames() {
        return frames;
    }

    public CallTree tree() {
        return tree;
    }

    public ThreadTable threads() {
        return threads;
    }

    public SampleLog samples() {
        return samples;
    }

    public SamplingStats stats() {
        return stats;
    }

    void stats(SamplingStats stats) {
        this.stats = stats;
    }

    /** The name of an opcode id from {@link SampleLog#opcode(int)}. */
    public String opcodeName(int id) {
        return opcodeNames.get(id);
    }

    int opcodeId(String name) {
        Integer id = opcodeIds.get(name);
        if (id == null) {
            id = opcodeNames.size();
            opcodeNames.add(name);
            opcodeIds.put(name, id);
        }
        return id;
    }

    /** Samples per call-tree node: how often each exact stack was seen. */
    public long[] countsPerNode() {
        long[] counts = new long[tree.size()];
        for (int i = 0; i < samples.size(); i++) {
            counts[samples.node(i)] += samples.weight(i);
        }
        return counts;
    }
}
