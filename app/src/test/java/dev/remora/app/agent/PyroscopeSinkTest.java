package dev.remora.app.agent;

import dev.remora.app.testing.PyroscopeReceiver;
import dev.remora.app.testing.PyroscopeReceiver.Answer;
import dev.remora.domain.model.FrameInfo;
import dev.remora.domain.linetable.SourceLocation;
import dev.remora.domain.profile.ProfileBuilder;
import dev.remora.domain.profile.ProfileInfo;
import dev.remora.domain.profile.ProfileMode;
import dev.remora.domain.profile.SampleKeeping;
import dev.remora.domain.profile.SamplingStats;
import dev.remora.domain.profile.StackErrors;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The requests Pyroscope's ingest API takes, checked field by field by a receiver that refuses what it would refuse. */
class PyroscopeSinkTest {

    private static final LabelSettings LABELS = new LabelSettings("{name}", Map.of("env", "prod", "region", "eu-1"), Map.of(), Set.of(),
            "host-a");

    /** A window of one thread's samples, encoded as the agent encodes it. */
    static ProfileWindow window(long fromMillis) throws Exception {
        ProfileBuilder builder = new ProfileBuilder(new ProfileInfo(4242, "3.12.1", "vmreadv", ProfileMode.WALL, 10_000_000,
                fromMillis), SampleKeeping.COUNTS);
        for (int i = 0; i < 10; i++) {
            builder.beginSample(i * 10_000_000L);
            builder.beginThread(1, 77, 0);
            builder.frame(FrameInfo.ofCode("work", "/srv/app.py", new SourceLocation(3, 3, -1, -1), 1));
            builder.frame(FrameInfo.ofCode("<module>", "/srv/app.py", new SourceLocation(9, 9, -1, -1), 1));
            builder.endThread(Optional.empty());
        }
        builder.finish(new SamplingStats(10, 10, StackErrors.NONE, 0, 100_000_000));
        ProcessLabels labels = LABELS.of(4242, List.of("/usr/bin/python3.12", "/srv/app.py"), "3.12.1", Map.of());
        return WindowPacker.encode(new WatchedProcess.ClosedWindow(4242, labels, builder.profile(), ProfileMode.WALL,
                fromMillis, fromMillis + 10_000), java.util.EnumSet.allOf(WireFormat.class), "0.1.0-test");
    }

    @Test
    void aWindowIsPostedAsPyroscopesIngestApiTakesIt() throws Exception {
        try (PyroscopeReceiver receiver = PyroscopeReceiver.start()) {
            PyroscopeSink sink = new PyroscopeSink(receiver.url(), new PyroscopeSink.Auth("team-7", "alice:s3cret", null,
                    List.of(Map.entry("X-Extra", "yes"))));
            sink.deliver(window(1_790_000_000_123L));
            assertThat(receiver.refused()).isEmpty();
            PyroscopeReceiver.Ingested got = receiver.ingested().getFirst();
            assertThat(got.app()).isEqualTo("app");
            assertThat(got.labels()).containsExactlyInAnyOrderEntriesOf(Map.of("env", "prod", "region", "eu-1",
                    "hostname", "host-a", "pid", "4242", "python_version", "3.12.1"));
            assertThat(got.query()).containsEntry("from", "1790000000").containsEntry("until", "1790000011")
                    .containsEntry("format", "pprof").containsEntry("sampleRate", "100").containsEntry("spyName", "remora");
            assertThat(got.headers().get("X-scope-orgid")).containsExactly("team-7");
            assertThat(got.headers().get("Authorization")).containsExactly("Basic YWxpY2U6czNjcmV0");
            assertThat(got.headers().get("X-extra")).containsExactly("yes");
        }
    }

    @Test
    void aLabelValueWithPyroscopesSeparatorsDoesNotSplitTheName() throws Exception {
        ProcessLabels labels = new ProcessLabels("svc", new java.util.TreeMap<>(Map.of("k", "a,b}c")));
        assertThat(PyroscopeSink.name(labels)).isEqualTo("svc{k=a_b_c}");
    }

    @Test
    void aServerErrorATimeoutAndAHangupAreTriedAgainARefusalIsNot() throws Exception {
        try (PyroscopeReceiver receiver = PyroscopeReceiver.start()) {
            receiver.script(new Answer.Status(503), new Answer.Silence(1500), new Answer.Hangup(), new Answer.Status(422));
            PyroscopeSink sink = new PyroscopeSink(receiver.url(), PyroscopeSink.Auth.NONE, Duration.ofMillis(500));
            ProfileWindow window = window(1_790_000_000_000L);
            for (String expected : List.of("answered 503", "no answer", "cannot reach")) {
                assertThatThrownBy(() -> sink.deliver(window)).isInstanceOfSatisfying(Sink.DeliveryFailure.class,
                        f -> assertThat(f.next()).isEqualTo(Sink.DeliveryFailure.Next.RETRY)).hasMessageContaining(expected);
            }
            assertThatThrownBy(() -> sink.deliver(window)).isInstanceOfSatisfying(Sink.DeliveryFailure.class,
                    f -> assertThat(f.next()).isEqualTo(Sink.DeliveryFailure.Next.DROP));
            sink.deliver(window);
            assertThat(receiver.ingested()).hasSize(1);
        }
    }

    @Test
    void theReceiverRefusesWhatPyroscopeRefuses() throws Exception {
        try (PyroscopeReceiver receiver = PyroscopeReceiver.start()) {
            java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();
            for (String query : List.of("name=bad%20name&from=1&until=2&format=pprof&sampleRate=100",
                    "name=app%7Bk%3Dv&from=1&until=2&format=pprof&sampleRate=100",
                    "name=app&from=1&until=2&sampleRate=100")) {
                int status = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(receiver.url() + "/ingest?" + query))
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(window(0).body(WireFormat.PPROF))).build(),
                        java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
                assertThat(status).as(query).isEqualTo(400);
            }
            int notPprof = client.send(java.net.http.HttpRequest.newBuilder(java.net.URI.create(receiver.url()
                            + "/ingest?name=app&from=1&until=2&format=pprof&sampleRate=100"))
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString("folded;stack 1")).build(),
                    java.net.http.HttpResponse.BodyHandlers.discarding()).statusCode();
            assertThat(notPprof).isEqualTo(422);
            assertThat(receiver.ingested()).isEmpty();
        }
    }
}
