package dev.remora.app.cli;

import dev.remora.domain.profile.Profile;

import java.io.IOException;

/** Where a profiling session's profile goes: an output, or (with --merge) the merge of a process tree. */
interface ProfileSink {

    /** Samples {@code from} to {@code to} were added: formats that stream write them now. */
    void window(Profile profile, int from, int to);

    /** Sampling is over: the whole profile. */
    void write(Profile profile) throws IOException;
}
