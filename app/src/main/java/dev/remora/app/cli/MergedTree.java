package dev.remora.app.cli;

import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileMerger;
import dev.remora.domain.profile.SampleKeeping;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** {@code --merge}: the profiles of a tree's sessions, kept until all are over, then made one. */
final class MergedTree {

    /**
     * A root frame names the process; a command line this long is cut. Line breaks (a -c script) and
     * ';' would split a collapsed stack: they become spaces and commas.
     */
    private static final int MAX_COMMAND_CHARS = 120;

    private final List<ProfileMerger.Part> parts = new ArrayList<>();
    private final SampleKeeping keeping;

    /** @param keeping what the merged profile keeps of its samples, as its format needs */
    MergedTree(SampleKeeping keeping) {
        this.keeping = keeping;
    }

    /** The sink of one process's session. */
    ProfileSink part(int pid, List<String> command) {
        String line = String.join(" ", command).replace(';', ',').replaceAll("\\p{Cntrl}+", " ");
        String label = line.length() > MAX_COMMAND_CHARS ? line.substring(0, MAX_COMMAND_CHARS) + "..." : line;
        return new ProfileSink() {
            @Override
            public void window(Profile profile, int from, int to) {
                // Written whole at the end, merged.
            }

            @Override
            public void write(Profile profile) {
                synchronized (parts) {
                    parts.add(new ProfileMerger.Part(profile, label));
                }
            }
        };
    }

    /** The merged profile: the root's process first, then the others in the order they started. */
    Profile profile(int root) {
        synchronized (parts) {
            List<ProfileMerger.Part> ordered = new ArrayList<>(parts);
            ordered.sort(Comparator.comparing((ProfileMerger.Part p) -> p.profile().info().pid() != root)
                    .thenComparingLong(p -> p.profile().info().startEpochMillis()));
            return ProfileMerger.merge(ordered, keeping);
        }
    }
}
