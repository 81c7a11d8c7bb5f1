package dev.remora.app.agent;

import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Delivers one sink's windows on a thread of its own, oldest first, so that a back end that is slow
 * or down never holds up sampling or another sink. A window the back end could not take is tried
 * again after a pause that doubles up to a bound; one it refused for what it is, is dropped and
 * counted. Windows wait in a queue bounded in bytes meanwhile.
 */
final class SinkWorker {

    /** The pauses between tries of a window that failed. */
    record Backoff(long firstNanos, long maxNanos) {
        static final Backoff DEFAULT = new Backoff(TimeUnit.MILLISECONDS.toNanos(500), TimeUnit.SECONDS.toNanos(30));
    }

    private final Sink sink;
    private final WindowQueue queue;
    private final Backoff backoff;
    private final AgentLog log;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong failedTries = new AtomicLong();
    private final AtomicLong refused = new AtomicLong();
    private final Thread thread;
    /** While the agent ends: the time after which a failed try is not followed by another. */
    private volatile long giveUpAt = Long.MAX_VALUE;

    SinkWorker(Sink sink, long queueBytes, Backoff backoff, AgentLog log) {
        this.sink = sink;
        this.queue = new WindowQueue(queueBytes);
        this.backoff = backoff;
        this.log = log;
        this.thread = Thread.ofPlatform().daemon().name("remora-sink-" + sink.name()).unstarted(this::deliverAll);
    }

    WireFormat format() {
        return sink.format();
    }

    void start() {
        thread.start();
    }

    void offer(ProfileWindow window) {
        queue.add(window);
    }

    /**
     * No more windows come: delivers what is queued, for {@code waitNanos} at most; returns how many
     * windows were left undelivered.
     */
    int finish(long waitNanos) throws InterruptedException {
        giveUpAt = System.nanoTime() + waitNanos;
        queue.close();
        thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(waitNanos)));
        if (thread.isAlive()) {
            thread.interrupt();
            thread.join(1000);
        }
        return queue.size();
    }

    /** Whether the worker's thread still runs: after {@link #finish}, it should not. */
    boolean delivering() {
        return thread.isAlive();
    }

    SinkCounts counts() {
        return new SinkCounts(sink.name(), delivered.get(), failedTries.get(), refused.get(), queue.dropped(), queue.size(),
                queue.bytes());
    }

    private void deliverAll() {
        long pause = backoff.firstNanos();
        boolean failing = false;
        try {
            while (true) {
                Optional<ProfileWindow> next = queue.oldest(TimeUnit.SECONDS.toNanos(1));
                if (next.isEmpty()) {
                    if (queue.closed()) {
                        return;
                    }
                    continue;
                }
                ProfileWindow window = next.get();
                try {
                    sink.deliver(window);
                    queue.remove(window);
                    delivered.incrementAndGet();
                    pause = backoff.firstNanos();
                    if (failing) {
                        log.line(sink.name() + ": delivering again (" + queue.size() + " window"
                                + (queue.size() == 1 ? "" : "s") + " still queued)");
                        failing = false;
                    }
                } catch (Sink.DeliveryFailure failure) {
                    if (failure.next() == Sink.DeliveryFailure.Next.DROP) {
                        queue.remove(window);
                        refused.incrementAndGet();
                        log.line(sink.name() + ": window of process " + window.pid() + " refused, dropped: "
                                + failure.getMessage());
                        continue;
                    }
                    failedTries.incrementAndGet();
                    if (!failing) {
                        log.line(sink.name() + ": " + failure.getMessage() + "; windows are queued and tried again");
                        failing = true;
                    }
                    if (queue.closed()) {
                        // The agent is ending: tries follow each other at the first pause until the flush bound.
                        long left = giveUpAt - System.nanoTime();
                        if (left <= 0) {
                            return;
                        }
                        TimeUnit.NANOSECONDS.sleep(Math.min(backoff.firstNanos(), left));
                    } else if (queue.awaitClose(pause)) {
                        pause = backoff.firstNanos(); // closed while it paused: one more try at once
                    } else {
                        pause = Math.min(pause * 2, backoff.maxNanos());
                    }
                }
            }
        } catch (InterruptedException e) {
            // finish() gave up waiting: what is left is counted there.
        }
    }
}
