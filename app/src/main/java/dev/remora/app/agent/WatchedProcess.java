package dev.remora.app.agent;

import dev.remora.app.wiring.TargetPorts;
import dev.remora.domain.InspectionException;
import dev.remora.domain.model.ThreadNames;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SampleKeeping;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.ThreadTable;
import dev.remora.domain.walk.PythonProcess;
import dev.remora.domain.walk.SnapshotOptions;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.ThreadCpuClocks;

import java.util.Optional;

/**
 * One process the agent samples: its open memory, and the profile of the window under way. Used by
 * the sampling thread only.
 */
final class WatchedProcess implements AutoCloseable {

    private final ProcessKey key;
    private final TargetPorts ports;
    private final PythonProcess process;
    private final ProcessLabels labels;
    private final ThreadCpuClocks clocks;
    private final SnapshotOptions walk;
    private final ProfileMode mode;
    private final long intervalNanos;
    private ProfileBuilder window;
    private long windowStartNanos;
    private long windowStartMillis;
    private long ticks;

    WatchedProcess(ProcessKey key, TargetPorts ports, PythonProcess process, ProcessLabels labels, ThreadCpuClocks clocks,
                   ProfileMode mode, long intervalNanos) {
        this.key = key;
        this.ports = ports;
        this.process = process;
        this.labels = labels;
        this.clocks = clocks;
        this.mode = mode;
        this.intervalNanos = intervalNanos;
        this.walk = SnapshotOptions.of(SnapshotOptions.Threads.ALL).withCpuState(mode == ProfileMode.CPU);
        process.useCpuClocks(clocks, intervalNanos);
    }

    ProcessKey key() {
        return key;
    }

    int pid() {
        return key.pid();
    }

    ProcessLabels labels() {
        return labels;
    }

    /** Starts the window that the next samples go into. */
    void beginWindow(long nowNanos, long nowMillis) {
        window = new ProfileBuilder(new ProfileInfo(key.pid(), process.version().toString(), process.backendName(), mode,
                intervalNanos, nowMillis), SampleKeeping.COUNTS);
        windowStartNanos = nowNanos;
        windowStartMillis = nowMillis;
        ticks = 0;
    }

    /** One tick's walk of every thread; a walk that fails is the tick's error, a process that went away throws. */
    void sample(long nowNanos) throws InspectionException.TargetGone {
        window.beginSample(nowNanos - windowStartNanos);
        ticks++;
        try {
            process.sample(walk, window);
        } catch (InspectionException.TargetGone gone) {
            ticks--;
            throw gone;
        } catch (InspectionException e) {
            if (exited()) {
                ticks--;
                throw new InspectionException.TargetGone(e.getMessage());
            }
            window.tickFailed();
        } catch (RuntimeException e) {
            // A walk that broke on what it read: this process's tick is an error; the other processes go on.
            window.tickFailed();
        }
    }

    /** Whether the process has no threads left: what a read that fails on a process gone may look like. */
    private boolean exited() {
        try {
            return ports.image().threadIds().isEmpty();
        } catch (ProcessImageException e) {
            return true;
        }
    }

    /** Ends the window under way: its profile, its threads named while the process can still be read. */
    ClosedWindow endWindow(long nowNanos, long nowMillis, long missed) {
        window.finish(new SamplingStats(ticks, window.profile().samples().total(), window.errors(), missed,
                nowNanos - windowStartNanos));
        Profile profile = window.profile();
        nameThreads(profile.threads());
        return new ClosedWindow(key.pid(), labels, profile, mode, windowStartMillis, nowMillis);
    }

    private void nameThreads(ThreadTable threads) {
        ThreadNames names;
        try {
            names = process.threadNames();
        } catch (InspectionException | RuntimeException e) {
            return; // gone, or changing as it was read: the threads keep their ids
        }
        for (int i = 0; i < threads.size(); i++) {
            Optional<String> name = names.of(threads.get(i).threadId());
            if (name.isPresent()) {
                threads.name(i, name.get());
            }
        }
    }

    @Override
    public void close() {
        try {
            clocks.close();
        } catch (Exception ignored) {
            // Its descriptors go with the process.
        }
        ports.close();
    }

    /** A window's profile, finished, yet to be encoded. */
    record ClosedWindow(int pid, ProcessLabels labels, Profile profile, ProfileMode mode, long fromMillis, long untilMillis) {}
}
