package dev.remora.domain.profile;

import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.model.StackProblem;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The profiles of several processes made one: every sample of each, at its own time, under a root
 * frame naming its process ({@code process PID: command line}), so that every output format shows
 * the processes side by side. Counts and errors add up.
 */
public final class ProfileMerger {

    /** One process's profile and what its root frame says of it. */
    public record Part(Profile profile, String commandLine) {}

    /** Entries replayed between folds of a merged profile that keeps counts. */
    private static final int FOLD_EVERY = 1 << 16;

    private ProfileMerger() {}

    /**
     * The merged profile; its info is the first part's (the tree's root), started when the first part
     * started. It keeps its samples as {@code keeping} says: with counts, folded as they are replayed,
     * so that merging a long run's tree does not hold each of its samples at once.
     */
    public static Profile merge(List<Part> parts, SampleKeeping keeping) {
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("no profiles to merge");
        }
        ProfileInfo first = parts.getFirst().profile().info();
        long start = parts.stream().mapToLong(p -> p.profile().info().startEpochMillis()).min().orElseThrow();
        ProfileBuilder merged = new ProfileBuilder(new ProfileInfo(first.pid(), first.pythonVersion(), first.backend(),
                first.mode(), first.intervalNanos(), start), keeping);
        List<Sample> samples = new ArrayList<>();
        for (int p = 0; p < parts.size(); p++) {
            Profile profile = parts.get(p).profile();
            long offset = (profile.info().startEpochMillis() - start) * 1_000_000;
            for (int s = 0; s < profile.samples().size(); s++) {
                samples.add(new Sample(offset + profile.samples().time(s), p, s));
            }
        }
        samples.sort(Comparator.comparingLong(Sample::time));
        List<FrameInfo> roots = parts.stream()
                .map(part -> new FrameInfo("process %d: %s".formatted(part.profile().info().pid(), part.commandLine()), "~",
                        SourceLocation.NONE))
                .toList();
        long replayed = 0;
        for (Sample sample : samples) {
            // A folded entry stands for several samples: each is replayed, at its first one's time.
            Profile from = parts.get(sample.part()).profile();
            for (int copy = 0; copy < from.samples().weight(sample.index()); copy++) {
                replay(from, sample.index(), sample.time(), roots.get(sample.part()), merged);
            }
            if (++replayed % FOLD_EVERY == 0) {
                merged.windowHandedOn();
            }
        }
        merged.windowHandedOn();
        nameThreads(parts, merged.profile());
        merged.finish(totals(parts, start));
        return merged.profile();
    }

    private record Sample(long time, int part, int index) {}

    private static void replay(Profile from, int sample, long time, FrameInfo root, ProfileBuilder into) {
        SampleLog log = from.samples();
        int node = log.node(sample);
        ThreadTable.ProfiledThread thread = from.threads().get(from.tree().threadIndex(node));
        into.beginSample(time);
        if (!into.beginThread(thread.interpreterId(), thread.threadId(), log.status(sample))) {
            return;
        }
        int[] path = from.tree().path(node);
        for (int i = path.length - 1; i >= 0; i--) {
            into.frame(from.frames().get(path[i]));
        }
        into.frame(root);
        if (log.opcode(sample) >= 0) {
            into.opcode(from.opcodeName(log.opcode(sample)));
        }
        into.endThread(Optional.empty());
    }

    private static void nameThreads(List<Part> parts, Profile merged) {
        for (Part part : parts) {
            ThreadTable threads = part.profile().threads();
            for (int i = 0; i < threads.size(); i++) {
                ThreadTable.ProfiledThread thread = threads.get(i);
                int index = merged.threads().index(thread.threadId(), thread.interpreterId());
                thread.name().ifPresent(name -> merged.threads().name(index, name));
                merged.threads().process(index, part.profile().info().pid());
            }
        }
    }

    /** Counts add up; the time is from the first start to the last end. */
    private static SamplingStats totals(List<Part> parts, long startEpochMillis) {
        long ticks = 0;
        long samples = 0;
        long missed = 0;
        long elapsed = 0;
        long[] errors = new long[StackProblem.Kind.values().length];
        for (Part part : parts) {
            SamplingStats stats = part.profile().stats();
            ticks += stats.ticks();
            samples += stats.samples();
            missed += stats.missed();
            long offset = (part.profile().info().startEpochMillis() - startEpochMillis) * 1_000_000;
            elapsed = Math.max(elapsed, offset + stats.elapsedNanos());
            for (StackProblem.Kind kind : StackProblem.Kind.values()) {
                errors[kind.ordinal()] += stats.errors().count(kind);
            }
        }
        return new SamplingStats(ticks, samples, new StackErrors(errors), missed, elapsed);
    }
}
