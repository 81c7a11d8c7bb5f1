package dev.remora.app.output.profile.binary;

import dev.remora.app.output.profile.SampleStream;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.StackErrors;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * {@code --binary}: every sample written to CPython 3.15's binary capture format while sampling
 * goes on. After each window the file is whole again: the window's records go where the tables were,
 * then the tables, Remora's facts, the stats and the footer follow them, and the header is rewritten
 * last. A profiler killed between two windows leaves a file that reads back up to the last window;
 * one killed while it rewrites the tail (a few writes) leaves a header that points into new samples.
 */
public final class BinaryCapture implements SampleStream {

    private final FileChannel file;
    private final boolean zstd;
    private final int features;
    private TachyonCapture capture;
    private long samplesEnd = TachyonLayout.HEADER_SIZE;

    /**
     * @param features the capture features ({@code --all-threads}, {@code --native}, GC frames,
     *     {@code --opcodes}) as {@link #features} makes them
     */
    public BinaryCapture(Path path, boolean zstd, int features) throws IOException {
        this.file = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
        this.zstd = zstd;
        this.features = features;
    }

    /** The config word's feature bits for these options. */
    public static int features(boolean allThreads, boolean nativeFrames, boolean gcFrames, boolean opcodes) {
        return (allThreads ? TachyonLayout.FEATURE_ALL_THREADS : 0) | (nativeFrames ? TachyonLayout.FEATURE_NATIVE : 0)
                | (gcFrames ? TachyonLayout.FEATURE_GC : 0) | (opcodes ? TachyonLayout.FEATURE_OPCODES : 0);
    }

    @Override
    public void window(Profile profile, int fromSample, int toSample) throws IOException {
        if (capture == null) {
            capture = new TachyonCapture(profile.info(), zstd, features);
        }
        if (toSample <= fromSample) {
            return;
        }
        byte[] block = capture.block(profile, fromSample, toSample);
        writeAt(samplesEnd, block);
        samplesEnd += block.length;
        // Until the sampling ends, the stats are those of the samples so far.
        long samples = profile.samples().total();
        SamplingStats sofar = new SamplingStats(samples, samples, StackErrors.NONE, 0, profile.samples().lastTime());
        whole(profile, sofar);
    }

    @Override
    public void finish(Profile profile) throws IOException {
        if (capture == null) {
            capture = new TachyonCapture(profile.info(), zstd, features);
        }
        whole(profile, profile.stats());
        file.force(false);
    }

    private void whole(Profile profile, SamplingStats stats) throws IOException {
        TachyonCapture.Tail tail = capture.tail(profile, samplesEnd, stats);
        writeAt(samplesEnd, tail.bytes());
        file.truncate(samplesEnd + tail.bytes().length);
        writeAt(0, capture.header(tail));
    }

    private void writeAt(long position, byte[] bytes) throws IOException {
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        while (buffer.hasRemaining()) {
            file.write(buffer, position + buffer.position());
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
