package dev.remora.app.agent;

import dev.remora.app.profiling.SamplerPriority;
import dev.remora.domain.profile.ProfileMode;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code remora agent}: samples every selected Python process on the host in one loop and hands one
 * profile per process per window to each sink. A thread looks for processes, one encodes windows,
 * one per sink delivers them; none of them holds up the loop. Ends on {@link #stop()} (SIGTERM,
 * Ctrl-C) or after its duration, delivering what it has within the flush bound.
 */
public final class Agent {

    /** What the agent samples, how, and where it reports. */
    public record Settings(ProcessSelection selection, LabelSettings labels, ProfileMode mode, long intervalNanos,
                           long windowNanos, long scanNanos, long durationNanos, long queueBytes, long flushNanos,
                           Optional<Path> statusFile, SamplerPriority priority, String version) {}

    private static final long HEALTH_EVERY_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Settings settings;
    private final List<SinkWorker> sinks = new ArrayList<>();
    private final AgentLog log;
    private final AgentCounts counts = new AgentCounts();
    private final ProcessScanner scanner;
    private final AtomicBoolean stopping = new AtomicBoolean();
    private final AtomicBoolean healthAsked = new AtomicBoolean();

    public Agent(Settings settings, List<Sink> sinks, ProcessOpener opener, AgentLog log) {
        this(settings, sinks, SinkWorker.Backoff.DEFAULT, opener, log);
    }

    Agent(Settings settings, List<Sink> sinks, SinkWorker.Backoff backoff, ProcessOpener opener, AgentLog log) {
        this.settings = settings;
        this.log = log;
        for (Sink sink : sinks) {
            this.sinks.add(new SinkWorker(sink, settings.queueBytes(), backoff, log));
        }
        this.scanner = new ProcessScanner(settings.selection(), settings.labels(), opener, settings.mode(),
                settings.intervalNanos(), log);
    }

    /** Ends the run: sampling stops at its next tick and what was collected is delivered. */
    public void stop() {
        stopping.set(true);
    }

    /** Writes the health line now (SIGUSR1), from the scanning thread. */
    public void reportHealth() {
        healthAsked.set(true);
    }

    /** Runs until stopped; returns the exit code: 0, or 1 when windows were left undelivered at the end. */
    public int run() throws InterruptedException {
        long start = System.nanoTime();
        WindowPacker packer = new WindowPacker(sinks, counts::packed, log, settings.version());
        sinks.forEach(SinkWorker::start);
        packer.start();
        Thread scanning = Thread.ofPlatform().daemon().name("remora-scan").start(() -> scanAndReport(start));
        log.line("started: " + Math.round(1e9 / settings.intervalNanos()) + " Hz, " + settings.mode().name().toLowerCase(java.util.Locale.ROOT)
                + " mode, windows of " + TimeUnit.NANOSECONDS.toMillis(settings.windowNanos()) / 1000.0 + " s, to "
                + String.join(", ", sinks.stream().map(s -> s.counts().sink()).toList()));
        AgentLoop loop = new AgentLoop(settings.intervalNanos(), settings.windowNanos(), scanner, packer, counts,
                settings.priority());
        loop.run(() -> stopping.get()
                || (settings.durationNanos() > 0 && System.nanoTime() - start >= settings.durationNanos()));
        stopping.set(true);
        scanning.interrupt();
        scanning.join(2000);
        long deadline = System.nanoTime() + settings.flushNanos();
        packer.finish(settings.flushNanos());
        int left = 0;
        for (SinkWorker sink : sinks) {
            left += sink.finish(Math.max(0, deadline - System.nanoTime()));
        }
        String health = health();
        log.line("stopped: " + health);
        writeStatus(health);
        if (left > 0) {
            log.line(left + " window" + (left == 1 ? " was" : "s were") + " not delivered within the flush bound of "
                    + TimeUnit.NANOSECONDS.toSeconds(settings.flushNanos()) + " s");
            return 1;
        }
        return 0;
    }

    /** The scanning thread: a look at the host's processes every scan interval, the health line every minute. */
    private void scanAndReport(long start) {
        long nextScan = System.nanoTime();
        long nextHealth = start + HEALTH_EVERY_NANOS;
        while (!stopping.get()) {
            long now = System.nanoTime();
            if (now - nextScan >= 0) {
                try {
                    scanner.scan();
                } catch (IOException | RuntimeException e) {
                    log.line("cannot look through /proc: " + e.getMessage());
                }
                nextScan = now + settings.scanNanos();
            }
            if (now - nextHealth >= 0 || healthAsked.getAndSet(false)) {
                String health = health();
                log.line(health);
                writeStatus(health);
                if (now - nextHealth >= 0) {
                    nextHealth += HEALTH_EVERY_NANOS;
                }
            }
            try {
                TimeUnit.MILLISECONDS.sleep(100);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private String health() {
        return counts.line(scanner::watchedCount, () -> sinks.stream().map(SinkWorker::counts).toList());
    }

    /** The health line in the status file, replaced whole so that a reader never sees half of it. */
    private void writeStatus(String health) {
        if (settings.statusFile().isEmpty()) {
            return;
        }
        Path file = settings.statusFile().get();
        Path aside = file.resolveSibling(file.getFileName() + ".part");
        try {
            Files.writeString(aside, java.time.Instant.now() + " " + health + "\n", StandardCharsets.UTF_8);
            Files.move(aside, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            log.line("cannot write the status file " + file + ": " + e.getMessage());
        }
    }
}
