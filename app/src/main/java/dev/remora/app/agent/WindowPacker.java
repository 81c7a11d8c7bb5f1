package dev.remora.app.agent;

import dev.remora.app.output.profile.pprof.PprofWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Encodes each closed window as pprof, once, on a thread of its own (the sampling thread must not
 * spend a tick's time on it), and hands the bytes to every sink.
 */
final class WindowPacker {

    private static final WatchedProcess.ClosedWindow END = new WatchedProcess.ClosedWindow(0, null, null, null, 0, 0);

    private final LinkedBlockingQueue<WatchedProcess.ClosedWindow> closed = new LinkedBlockingQueue<>();
    private final List<SinkWorker> sinks;
    private final Consumer<ProfileWindow> packed;
    private final AgentLog log;
    private final Thread thread;

    /** @param packed told of every window encoded, before the sinks get it (the agent's counts) */
    WindowPacker(List<SinkWorker> sinks, Consumer<ProfileWindow> packed, AgentLog log) {
        this.sinks = sinks;
        this.packed = packed;
        this.log = log;
        this.thread = Thread.ofPlatform().daemon().name("remora-packer").unstarted(this::packAll);
    }

    void start() {
        thread.start();
    }

    void add(WatchedProcess.ClosedWindow window) {
        closed.add(window);
    }

    /** Encodes what was added so far and ends; waits {@code waitNanos} at most. */
    void finish(long waitNanos) throws InterruptedException {
        closed.add(END);
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos)));
    }

    private void packAll() {
        try {
            while (true) {
                WatchedProcess.ClosedWindow window = closed.take();
                if (window == END) {
                    return;
                }
                ProfileWindow encoded;
                try {
                    encoded = encode(window);
                } catch (IOException | RuntimeException e) {
                    log.line("window of process " + window.pid() + " not encoded: " + e.getMessage());
                    continue;
                }
                packed.accept(encoded);
                for (SinkWorker sink : sinks) {
                    sink.offer(encoded);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    static ProfileWindow encode(WatchedProcess.ClosedWindow window) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 * 1024);
        new PprofWriter(List.of("labels: " + window.labels().withServiceName())).write(window.profile(), bytes);
        long rateHz = Math.round(1e9 / window.profile().info().intervalNanos());
        return new ProfileWindow(window.pid(), window.labels(), window.mode(), rateHz, window.fromMillis(),
                window.untilMillis(), bytes.toByteArray(), window.profile().stats().samples(),
                window.profile().stats().errors());
    }
}
