package dev.remora.app.cli;

import dev.remora.adapters.vmreadv.PtraceStopper;
import dev.remora.app.profiling.Sampler;
import dev.remora.domain.InspectionException;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.ports.ProcessStopException;
import dev.remora.ports.ProcessStopper;

/** {@code --blocking}: each sample is read while every thread of the target is stopped. */
final class StoppedSamples implements Sampler.Source {

    private final ProcessStopper stopper;
    private final Sampler.Source read;

    StoppedSamples(ProcessStopper stopper, Sampler.Source read) {
        this.stopper = stopper;
        this.read = read;
    }

    /** Seizes the target's threads, or says in one line why it cannot. */
    static ProcessStopper seize(int pid) {
        try {
            return PtraceStopper.seize(pid);
        } catch (ProcessStopException e) {
            throw new UserError("--blocking: " + e.getMessage(), UserErrorHandler.EXIT_FAILURE);
        }
    }

    @Override
    public void sampleInto(ProfileBuilder builder) throws InspectionException {
        try {
            stopper.stop();
        } catch (ProcessStopException e) {
            if (e.reason() == ProcessStopException.Reason.GONE) {
                throw new InspectionException.TargetGone(e.getMessage());
            }
            throw new InspectionException.Unreadable(e.getMessage());
        }
        try {
            read.sampleInto(builder);
        } finally {
            stopper.resume();
        }
    }
}
