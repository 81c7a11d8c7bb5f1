package dev.remora.app.output.profile;

import dev.remora.domain.model.ThreadStatus;
import dev.remora.domain.profile.Profile;
import dev.remora.domain.profile.SampleLog;

import java.util.stream.IntStream;

/**
 * The profile's samples split by thread, each thread's in log (time) order. Formats that keep one
 * timeline per thread read them this way instead of scanning the whole log once per thread.
 */
public final class SamplesByThread {

    private final int[] start;
    private final int[] samples;
    private final boolean[] main;

    private SamplesByThread(int[] start, int[] samples, boolean[] main) {
        this.start = start;
        this.samples = samples;
        this.main = main;
    }

    public static SamplesByThread of(Profile profile) {
        SampleLog log = profile.samples();
        int threads = profile.threads().size();
        int[] start = new int[threads + 1];
        boolean[] main = new boolean[threads];
        for (int i = 0; i < log.size(); i++) {
            int thread = profile.tree().threadIndex(log.node(i));
            start[thread + 1]++;
            main[thread] |= ThreadStatus.MAIN_THREAD.in(log.status(i));
        }
        for (int t = 0; t < threads; t++) {
            start[t + 1] += start[t];
        }
        int[] next = start.clone();
        int[] samples = new int[log.size()];
        for (int i = 0; i < log.size(); i++) {
            samples[next[profile.tree().threadIndex(log.node(i))]++] = i;
        }
        return new SamplesByThread(start, samples, main);
    }

    public int count(int thread) {
        return start[thread + 1] - start[thread];
    }

    /** The index in the sample log of the thread's {@code k}-th sample. */
    public int sample(int thread, int k) {
        return samples[start[thread] + k];
    }

    /** Whether any sample saw the thread as the interpreter's main thread. */
    public boolean isMain(int thread) {
        return main[thread];
    }

    /**
     * The threads with at least one sample, in table order: a thread whose every stack was dropped
     * (cut short, or without Python frames) has nothing to show.
     */
    public int[] sampledThreads() {
        return IntStream.range(0, main.length).filter(t -> count(t) > 0).toArray();
    }

    /** The position in {@code threads} of the first main thread, or 0: the view a reader should open first. */
    public int mainThreadPosition(int[] threads) {
        for (int i = 0; i < threads.length; i++) {
            if (main[threads[i]]) {
                return i;
            }
        }
        return 0;
    }
}
