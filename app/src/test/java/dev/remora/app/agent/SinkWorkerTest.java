package dev.remora.app.agent;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A sink scripted to fail as told: windows arrive once, in order, or are counted where they went. */
class SinkWorkerTest {

    private static final SinkWorker.Backoff QUICK = new SinkWorker.Backoff(TimeUnit.MILLISECONDS.toNanos(5),
            TimeUnit.MILLISECONDS.toNanos(20));

    /**
     * Answers each try with the next of its script, then takes everything; while {@link #down}, refuses
     * every try as a back end that is down does (a 503, a reset), until told it is back.
     */
    private static final class ScriptedSink implements Sink {
        final List<Sink.DeliveryFailure.Next> script;
        final List<Long> delivered = new ArrayList<>();
        volatile boolean down;
        int tries;

        ScriptedSink(List<Sink.DeliveryFailure.Next> script) {
            this.script = new ArrayList<>(script);
        }

        @Override
        public String name() {
            return "scripted";
        }

        @Override
        public WireFormat format() {
            return WireFormat.PPROF;
        }

        @Override
        public synchronized void deliver(ProfileWindow window) throws DeliveryFailure {
            tries++;
            if (down) {
                throw new DeliveryFailure(Sink.DeliveryFailure.Next.RETRY, "503 Service Unavailable");
            }
            if (!script.isEmpty()) {
                throw new DeliveryFailure(script.removeFirst(), "scripted failure");
            }
            delivered.add(window.fromMillis());
        }

        synchronized int tries() {
            return tries;
        }
    }

    /** A sink that is down from the start. */
    private static ScriptedSink down() {
        ScriptedSink sink = new ScriptedSink(List.of());
        sink.down = true;
        return sink;
    }

    /** Offers {@code count} windows of {@code bytes}, 10 s apart in what they cover, while the sink is down. */
    private static void outage(SinkWorker worker, ScriptedSink sink, int count, int bytes) throws InterruptedException {
        for (int i = 0; i < count; i++) {
            worker.offer(WindowQueueTest.window(7, i * 10_000L, bytes));
            Thread.sleep(2);
        }
        // The worker has met the outage more than once, and tried twice since the last window came (so it
        // holds no window the bound has since pushed out), before the back end comes back.
        int afterLast = sink.tries();
        for (int waited = 0; (sink.tries() < 3 || sink.tries() < afterLast + 2) && waited < 10_000; waited += 5) {
            Thread.sleep(5);
        }
        sink.down = false;
    }

    private static List<Long> fromMillis(int first, int last) {
        List<Long> from = new ArrayList<>();
        for (int i = first; i <= last; i++) {
            from.add(i * 10_000L);
        }
        return from;
    }

    private final StringWriter logged = new StringWriter();
    private final AgentLog log = new AgentLog(new PrintWriter(logged));

    @Test
    void aBackEndThatFailsAndComesBackGetsEveryWindowOnceInOrder() throws Exception {
        ScriptedSink sink = new ScriptedSink(List.of(Sink.DeliveryFailure.Next.RETRY, Sink.DeliveryFailure.Next.RETRY,
                Sink.DeliveryFailure.Next.RETRY));
        SinkWorker worker = new SinkWorker(sink, 1 << 20, QUICK, log);
        worker.start();
        for (int i = 0; i < 4; i++) {
            worker.offer(WindowQueueTest.window(7, i * 10_000L, 100));
        }
        assertThat(worker.finish(TimeUnit.SECONDS.toNanos(10))).isZero();
        assertThat(sink.delivered).containsExactly(0L, 10_000L, 20_000L, 30_000L);
        assertThat(worker.counts().failedTries()).isEqualTo(3);
        assertThat(logged.toString()).contains("windows are queued and tried again").contains("delivering again");
    }

    @Test
    void aBackEndDownForTwoMinutesOfWindowsGetsEachOnceInOrderWhenItIsBack() throws Exception {
        ScriptedSink sink = down();
        SinkWorker worker = new SinkWorker(sink, 8 << 20, QUICK, log);
        worker.start();
        outage(worker, sink, 12, 10_000); // two minutes of the default 10 s windows

        assertThat(worker.finish(TimeUnit.SECONDS.toNanos(10))).isZero();
        assertThat(sink.delivered).containsExactlyElementsOf(fromMillis(0, 11));
        assertThat(worker.counts().dropped()).isZero();
        assertThat(worker.counts().failedTries()).isGreaterThanOrEqualTo(3);
        assertThat(logged.toString().lines().filter(line -> line.contains("tried again")).count())
                .as("one line when the back end goes, however many tries fail: %s", logged).isEqualTo(1);
        assertThat(logged.toString().lines().filter(line -> line.contains("delivering again")).count()).isEqualTo(1);
    }

    @Test
    void anOutageLongerThanTheBoundCostsItsOldestWindowsCountedNeverTheNewest() throws Exception {
        ScriptedSink sink = down();
        SinkWorker worker = new SinkWorker(sink, 5 * (1000 + 256), QUICK, log);
        worker.start();
        outage(worker, sink, 12, 1000);

        assertThat(worker.finish(TimeUnit.SECONDS.toNanos(10))).isZero();
        assertThat(worker.counts().dropped()).as("windows past the bound of five").isEqualTo(7);
        assertThat(sink.delivered).as("the newest five, in order").containsExactlyElementsOf(fromMillis(7, 11));
    }

    @Test
    void aWindowTheBackEndRefusesIsDroppedAndCountedAndTheNextGoesOn() throws Exception {
        ScriptedSink sink = new ScriptedSink(List.of(Sink.DeliveryFailure.Next.DROP));
        SinkWorker worker = new SinkWorker(sink, 1 << 20, QUICK, log);
        worker.start();
        worker.offer(WindowQueueTest.window(7, 0, 100));
        worker.offer(WindowQueueTest.window(7, 10_000, 100));
        assertThat(worker.finish(TimeUnit.SECONDS.toNanos(10))).isZero();
        assertThat(sink.delivered).containsExactly(10_000L);
        assertThat(worker.counts().refused()).isEqualTo(1);
    }

    @Test
    void aBackEndStillDownWhenTheAgentEndsLeavesItsWindowsCountedAfterTheFlushBound() throws Exception {
        List<Sink.DeliveryFailure.Next> always = new ArrayList<>();
        for (int i = 0; i < 100_000; i++) {
            always.add(Sink.DeliveryFailure.Next.RETRY);
        }
        ScriptedSink sink = new ScriptedSink(always);
        SinkWorker worker = new SinkWorker(sink, 1 << 20, QUICK, log);
        worker.start();
        worker.offer(WindowQueueTest.window(7, 0, 100));
        worker.offer(WindowQueueTest.window(7, 10_000, 100));
        assertThat(worker.finish(TimeUnit.MILLISECONDS.toNanos(300))).isEqualTo(2);
        assertThat(worker.delivering()).as("the worker gave up once the bound passed").isFalse();
        assertThat(sink.tries()).as("tried again until the bound").isGreaterThan(1);
        assertThat(sink.delivered).isEmpty();
    }
}
