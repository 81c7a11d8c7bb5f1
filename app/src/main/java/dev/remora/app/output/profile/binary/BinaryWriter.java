package dev.remora.app.output.profile.binary;

import dev.remora.app.output.profile.ProfileWriter;
import dev.remora.domain.profile.Profile;

import java.io.IOException;
import java.io.OutputStream;

/** A whole profile in CPython 3.15's binary capture format, written at once (replays, merged trees). */
public final class BinaryWriter implements ProfileWriter {

    private final boolean zstd;

    public BinaryWriter(boolean zstd) {
        this.zstd = zstd;
    }

    @Override
    public void write(Profile profile, OutputStream out) throws IOException {
        TachyonCapture capture = new TachyonCapture(profile.info(), zstd, -1);
        byte[] samples = capture.block(profile, 0, profile.samples().size());
        TachyonCapture.Tail tail = capture.tail(profile, TachyonLayout.HEADER_SIZE + samples.length, profile.stats());
        out.write(capture.header(tail));
        out.write(samples);
        out.write(tail.bytes());
    }
}
