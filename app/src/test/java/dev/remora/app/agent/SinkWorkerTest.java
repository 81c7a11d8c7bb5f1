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

    /** Answers each try with the next of its script, then takes everything. */
    private static final class ScriptedSink implements Sink {
        final List<Sink.DeliveryFailure.Next> script;
        final List<Long> delivered = new ArrayList<>();
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
            if (!script.isEmpty()) {
                throw new DeliveryFailure(script.removeFirst(), "scripted failure");
            }
            delivered.add(window.fromMillis());
        }
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
        assertThat(sink.tries).as("tried again until the bound").isGreaterThan(1);
        assertThat(sink.delivered).isEmpty();
    }
}
