package dev.remora.app.agent;

import dev.remora.app.output.profile.otlp.OtlpProfiles;
import dev.remora.app.output.profile.pprof.PprofWriter;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.security.SecureRandom;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Encodes each closed window once in every format some sink sends, on a thread of its own (the
 * sampling thread must not spend a tick's time on it), and hands the bodies to every sink.
 */
final class WindowPacker {

    private static final WatchedProcess.ClosedWindow END = new WatchedProcess.ClosedWindow(0, null, null, null, 0, 0);

    private static final SecureRandom RANDOM = new SecureRandom();

    private final LinkedBlockingQueue<WatchedProcess.ClosedWindow> closed = new LinkedBlockingQueue<>();
    private final List<SinkWorker> sinks;
    private final Set<WireFormat> formats;
    /** Remora's version, which OTLP profiles name their scope's. */
    private final String version;
    private final Consumer<ProfileWindow> packed;
    private final AgentLog log;
    private final Thread thread;

    /** @param packed told of every window encoded, before the sinks get it (the agent's counts) */
    WindowPacker(List<SinkWorker> sinks, Consumer<ProfileWindow> packed, AgentLog log, String version) {
        this.version = version;
        this.sinks = sinks;
        this.formats = EnumSet.noneOf(WireFormat.class);
        sinks.forEach(sink -> formats.add(sink.format()));
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
                    encoded = encode(window, formats, version);
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

    /** The window in each of {@code formats}. */
    static ProfileWindow encode(WatchedProcess.ClosedWindow window, Set<WireFormat> formats, String version)
            throws IOException {
        Map<WireFormat, byte[]> bodies = new EnumMap<>(WireFormat.class);
        for (WireFormat format : formats) {
            bodies.put(format, switch (format) {
                case PPROF -> {
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream(16 * 1024);
                    new PprofWriter(List.of("labels: " + window.labels().withServiceName())).write(window.profile(), bytes);
                    yield bytes.toByteArray();
                }
                case OTLP -> OtlpProfiles.encode(window.profile(), OtlpResource.of(window.labels()), version,
                        profileId());
            });
        }
        long rateHz = Math.round(1e9 / window.profile().info().intervalNanos());
        return new ProfileWindow(window.pid(), window.labels(), window.mode(), rateHz, window.fromMillis(),
                window.untilMillis(), bodies, window.profile().stats().samples(), window.profile().stats().errors());
    }

    private static byte[] profileId() {
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        return id;
    }
}
