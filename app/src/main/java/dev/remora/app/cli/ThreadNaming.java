package dev.remora.app.cli;

import dev.remora.domain.InspectionException;
import dev.remora.domain.model.ThreadNames;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ThreadTable;
import dev.remora.ports.ProcessImage;

import java.util.BitSet;
import java.util.Optional;

/**
 * Names a profile's threads as the target's {@code threading} module does, else as the OS does.
 * Read while the run goes (a thread that exits before the end leaves its name behind) and once more
 * at its end, when names set late count.
 */
final class ThreadNaming {

    /** Reads the target's thread names now; what cannot be read leaves threads to their OS names. */
    interface PythonNames {
        ThreadNames read() throws InspectionException;
    }

    private final PythonNames python;
    private final ProcessImage image;
    /** Threads given their Python name so far, by index in the profile's table. */
    private final BitSet named = new BitSet();

    ThreadNaming(PythonNames python, ProcessImage image) {
        this.python = python;
        this.image = image;
    }

    /** Names the threads that have no Python name yet: once a second while sampling. */
    void nameNewThreads(Profile profile) {
        if (named.cardinality() < profile.threads().size()) {
            apply(profile.threads(), readOrNone());
        }
    }

    /** Names every thread: at the end of a run. */
    void nameAllThreads(Profile profile) {
        apply(profile.threads(), readOrNone());
    }

    private ThreadNames readOrNone() {
        try {
            return python.read();
        } catch (InspectionException | RuntimeException e) {
            return ThreadNames.NONE; // gone, or changing under the read: the names stay as they were
        }
    }

    private void apply(ThreadTable threads, ThreadNames read) {
        for (int i = 0; i < threads.size(); i++) {
            ThreadTable.ProfiledThread thread = threads.get(i);
            Optional<String> name = read.of(thread.threadId());
            if (name.isPresent()) {
                threads.name(i, name.get());
                named.set(i);
            } else if (thread.name().isEmpty()) {
                int index = i;
                image.threadName(thread.threadId()).ifPresent(os -> threads.name(index, os));
            }
        }
    }
}
