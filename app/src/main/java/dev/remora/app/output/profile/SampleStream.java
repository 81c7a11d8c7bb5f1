package dev.remora.app.output.profile;

import dev.remora.domain.profile.Profile;

import java.io.IOException;

/**
 * Receives a profile while it is being taken, one window of samples at a time, so a long run can be
 * read as it goes and a killed profiler loses at most the last window.
 */
public interface SampleStream extends AutoCloseable {

    /** Samples {@code [fromSample, toSample)} of the profile's sample log are new since the last window. */
    void window(Profile profile, int fromSample, int toSample) throws IOException;

    /** Sampling ended (the last window has been sent). */
    void finish(Profile profile) throws IOException;

    @Override
    void close() throws IOException;
}
