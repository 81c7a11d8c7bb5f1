package dev.remora.app.agent;

import dev.remora.app.testing.OtlpReceiver;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The OTLP body, decoded with the published definitions: what the window held, where OpenTelemetry puts it. */
class OtlpSinkTest {

    @Test
    void aWindowReachesAnOtlpReceiverAsTheDefinitionsDescribeIt() throws Exception {
        try (OtlpReceiver receiver = OtlpReceiver.start()) {
            OtlpSink sink = new OtlpSink(receiver.url(), List.of(Map.entry("X-Team", "a")), Duration.ofSeconds(5));
            sink.deliver(PyroscopeSinkTest.window(1_790_000_000_123L));
            assertThat(receiver.refused()).isEmpty();
            ExportProfilesServiceRequest request = receiver.received().getFirst();
            assertThat(OtlpReceiver.resource(request)).containsEntry("service.name", "app").containsEntry("host.name", "host-a")
                    .containsEntry("process.pid", "4242").containsEntry("process.runtime.name", "CPython")
                    .containsEntry("process.runtime.version", "3.12.1").containsEntry("env", "prod");
            Profile profile = OtlpReceiver.profiles(request).getFirst();
            ProfilesDictionary d = request.getDictionary();
            assertThat(d.getStringTable(profile.getSampleType().getTypeStrindex())).isEqualTo("samples");
            assertThat(d.getStringTable(profile.getPeriodType().getTypeStrindex())).isEqualTo("wall");
            assertThat(profile.getPeriod()).isEqualTo(10_000_000L);
            assertThat(profile.getTimeUnixNano()).isEqualTo(1_790_000_000_123L * 1_000_000);
            assertThat(profile.getProfileId().size()).isEqualTo(16);
            assertThat(profile.getSamplesList()).hasSize(1);
            assertThat(profile.getSamples(0).getValues(0)).isEqualTo(10);
            // The leaf first: work, then <module>; the sample labelled with its thread.
            List<String> stack = d.getStackTable(profile.getSamples(0).getStackIndex()).getLocationIndicesList().stream()
                    .map(l -> d.getStringTable(d.getFunctionTable(d.getLocationTable(l).getLines(0).getFunctionIndex())
                            .getNameStrindex()))
                    .toList();
            assertThat(stack).containsExactly("work", "<module>");
            assertThat(d.getLocationTable(d.getStackTable(profile.getSamples(0).getStackIndex()).getLocationIndices(0))
                    .getLines(0).getLine()).isEqualTo(3);
            var thread = d.getAttributeTable(profile.getSamples(0).getAttributeIndices(0));
            assertThat(d.getStringTable(thread.getKeyStrindex())).isEqualTo("thread.id");
            assertThat(thread.getValue().getIntValue()).isEqualTo(77);
            assertThat(OtlpReceiver.shares(request)).containsEntry("work", 1.0);
        }
    }

    @Test
    void anEndpointGivenWithTheSignalsPathIsTakenAsItIs() {
        OtlpSink sink = new OtlpSink(java.net.URI.create("http://collector:4318/v1development/profiles"), List.of(),
                Duration.ofSeconds(1));
        assertThat(sink.name()).isEqualTo("otlp http://collector:4318/v1development/profiles");
    }
}
