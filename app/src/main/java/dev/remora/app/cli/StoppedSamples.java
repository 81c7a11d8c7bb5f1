package dev.remora.app.cli;

import dev.remora.adapters.vmreadv.PtraceStopper;
import dev.remora.app.profiling.Sampler;
import dev.remora.domain.InspectionException;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.ports.CpuState;
import dev.remora.ports.ProcessImage;
import dev.remora.ports.ProcessImageException;
import dev.remora.ports.ProcessStopException;
import dev.remora.ports.ProcessStopper;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * {@code --blocking}: each sample is read while every thread of the target is stopped. Where the
 * walk asks which threads are on a CPU, their run states are read just before the stop: stopped, none is.
 */
final class StoppedSamples implements Sampler.Source {

    /**
     * One sample's reading of the stopped target, given each thread's run state from before the stop;
     * returns what is left to do once the target runs again.
     */
    @FunctionalInterface
    interface Read {
        AfterResume sampleInto(LongFunction<CpuState> runStates, ProfileBuilder builder) throws InspectionException;
    }

    /** Work on what a stop read that need not keep the target stopped. */
    @FunctionalInterface
    interface AfterResume {
        AfterResume NOTHING = () -> { };

        void run();
    }

    /** Whether each stop is preceded by a reading of the threads' run states. */
    enum RunStatesBeforeStop { READ, NOT_NEEDED }

    private final ProcessStopper stopper;
    private final ProcessImage image;
    private final RunStatesBeforeStop runStates;
    private final Read read;

    /**
     * @param runStates whether the walk asks for run states, which then are read before each stop
     */
    StoppedSamples(ProcessStopper stopper, ProcessImage image, RunStatesBeforeStop runStates, Read read) {
        this.stopper = stopper;
        this.image = image;
        this.runStates = runStates;
        this.read = read;
    }

    /** Seizes the target's threads, or says in one line why it cannot. */
    static ProcessStopper seize(int pid) {
        return seize(pid, "--blocking: ");
    }

    /** As {@link #seize(int)}, the one-line error starting with {@code why}. */
    static ProcessStopper seize(int pid, String why) {
        try {
            return PtraceStopper.seize(pid);
        } catch (ProcessStopException e) {
            throw new UserError(why + e.getMessage(), UserErrorHandler.EXIT_FAILURE);
        }
    }

    /** Stops every thread of the target, or says why it could not as the walk's own failures say it. */
    static void stop(ProcessStopper stopper) throws InspectionException {
        try {
            stopper.stop();
        } catch (ProcessStopException e) {
            if (e.reason() == ProcessStopException.Reason.GONE) {
                throw new InspectionException.TargetGone(e.getMessage());
            }
            throw new InspectionException.Unreadable(e.getMessage());
        }
    }

    /**
     * How long stopped threads run on to leave the middle of a call, by turn within a tick: a few calls'
     * time at first, five times as long at each next turn (a resumed thread is not always scheduled at once).
     */
    private static final long[] RUN_ON_NANOS = {2_000, 10_000, 50_000, 250_000};

    /**
     * Lets the stopped target run on for its {@code turn}'s time (see {@link #RUN_ON_NANOS}) and stops
     * it again. False, the target left running, when it could not be stopped again (the next stop
     * says why).
     */
    static boolean runOnAMoment(ProcessStopper stopper, int turn) {
        stopper.resume();
        long until = System.nanoTime() + RUN_ON_NANOS[Math.min(turn, RUN_ON_NANOS.length - 1)];
        while (System.nanoTime() < until) {
            Thread.onSpinWait(); // shorter than a sleep's wake-up
        }
        try {
            stopper.stop();
            return true;
        } catch (ProcessStopException e) {
            return false;
        }
    }

    @Override
    public void sampleInto(ProfileBuilder builder) throws InspectionException {
        Map<Long, CpuState> before = runStates == RunStatesBeforeStop.READ ? runStates() : Map.of();
        stop(stopper);
        AfterResume after;
        try {
            after = read.sampleInto(tid -> before.getOrDefault(tid, CpuState.UNKNOWN), builder);
        } finally {
            stopper.resume();
        }
        after.run();
    }

    private Map<Long, CpuState> runStates() throws InspectionException {
        try {
            Map<Long, CpuState> states = new HashMap<>();
            for (long tid : image.threadIds()) {
                states.put(tid, image.cpuState(tid));
            }
            return states;
        } catch (ProcessImageException e) {
            if (e.reason() == ProcessImageException.Reason.NO_SUCH_PROCESS) {
                throw new InspectionException.TargetGone(e.getMessage());
            }
            throw new InspectionException.Unreadable(e.getMessage());
        }
    }
}
