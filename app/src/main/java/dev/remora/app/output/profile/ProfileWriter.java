package dev.remora.app.output.profile;

import dev.remora.domain.profile.Profile;

import java.io.IOException;
import java.io.OutputStream;

/** Writes a finished profile in one file format. */
public interface ProfileWriter {

    void write(Profile profile, OutputStream out) throws IOException;
}
