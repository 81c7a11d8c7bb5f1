package dev.remora.app.testing;

import com.sun.net.httpserver.HttpExchange;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceRequest;
import io.opentelemetry.proto.collector.profiles.v1development.ExportProfilesServiceResponse;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.profiles.v1development.Profile;
import io.opentelemetry.proto.profiles.v1development.ProfilesDictionary;
import io.opentelemetry.proto.profiles.v1development.Sample;

import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A stand-in for an OpenTelemetry collector's OTLP/HTTP profiles receiver: it decodes each body with
 * the published definitions (Maven Central's {@code io.opentelemetry.proto:opentelemetry-proto}),
 * checks what the definitions require of a request (each dictionary table's entry 0 its zero value,
 * every index in range), refuses what breaks it (400), and answers 200 with an empty
 * {@code ExportProfilesServiceResponse}. No real collector runs in these tests.
 */
public final class OtlpReceiver implements AutoCloseable {

    private final LoopbackServer server;
    private final List<ExportProfilesServiceRequest> received = new ArrayList<>();
    private final List<String> refused = new ArrayList<>();

    private OtlpReceiver() throws IOException {
        this.server = LoopbackServer.start(this::handle);
    }

    public static OtlpReceiver start() throws IOException {
        return new OtlpReceiver();
    }

    public URI url() {
        return server.url();
    }

    public synchronized List<ExportProfilesServiceRequest> received() {
        return List.copyOf(received);
    }

    public synchronized List<String> refused() {
        return List.copyOf(refused);
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] body = exchange.getRequestBody().readAllBytes();
        String why = null;
        ExportProfilesServiceRequest request = null;
        if (!exchange.getRequestMethod().equals("POST") || !exchange.getRequestURI().getPath().equals("/v1development/profiles")) {
            why = "not POST /v1development/profiles: " + exchange.getRequestMethod() + " " + exchange.getRequestURI();
        } else if (!"application/x-protobuf".equals(exchange.getRequestHeaders().getFirst("Content-Type"))) {
            why = "Content-Type " + exchange.getRequestHeaders().getFirst("Content-Type");
        } else {
            try {
                request = ExportProfilesServiceRequest.parseFrom(body);
                why = problem(request);
            } catch (IOException e) {
                why = "not an ExportProfilesServiceRequest: " + e.getMessage();
            }
        }
        synchronized (this) {
            if (why == null) {
                received.add(request);
            } else {
                refused.add(why);
            }
        }
        byte[] answer = why == null ? ExportProfilesServiceResponse.getDefaultInstance().toByteArray() : why.getBytes();
        exchange.getResponseHeaders().set("Content-Type", why == null ? "application/x-protobuf" : "text/plain");
        exchange.sendResponseHeaders(why == null ? 200 : 400, answer.length == 0 ? -1 : answer.length);
        if (answer.length > 0) {
            exchange.getResponseBody().write(answer);
        }
        exchange.close();
    }

    /** What the definitions require and the request breaks, or null. */
    static String problem(ExportProfilesServiceRequest request) {
        ProfilesDictionary d = request.getDictionary();
        if (d.getStringTableCount() == 0 || !d.getStringTable(0).isEmpty()) {
            return "string_table[0] must be \"\"";
        }
        if (d.getMappingTableCount() == 0 || !d.getMappingTable(0).equals(d.getMappingTable(0).getDefaultInstanceForType())
                || d.getLocationTableCount() == 0 || !d.getLocationTable(0).equals(d.getLocationTable(0).getDefaultInstanceForType())
                || d.getFunctionTableCount() == 0 || !d.getFunctionTable(0).equals(d.getFunctionTable(0).getDefaultInstanceForType())
                || d.getLinkTableCount() == 0 || !d.getLinkTable(0).equals(d.getLinkTable(0).getDefaultInstanceForType())
                || d.getAttributeTableCount() == 0 || !d.getAttributeTable(0).equals(d.getAttributeTable(0).getDefaultInstanceForType())
                || d.getStackTableCount() == 0 || !d.getStackTable(0).equals(d.getStackTable(0).getDefaultInstanceForType())) {
            return "a dictionary table's entry 0 is missing or not its zero value";
        }
        for (Profile profile : profiles(request)) {
            if (profile.getSampleType().getTypeStrindex() >= d.getStringTableCount()) {
                return "sample_type out of the string table";
            }
            for (Sample sample : profile.getSamplesList()) {
                if (sample.getStackIndex() <= 0 || sample.getStackIndex() >= d.getStackTableCount() || sample.getValuesCount() != 1) {
                    return "a sample's stack or values: " + sample;
                }
                for (int location : d.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
                    if (location <= 0 || location >= d.getLocationTableCount()) {
                        return "a stack's location out of range: " + location;
                    }
                    for (var line : d.getLocationTable(location).getLinesList()) {
                        if (line.getFunctionIndex() <= 0 || line.getFunctionIndex() >= d.getFunctionTableCount()
                                || d.getFunctionTable(line.getFunctionIndex()).getNameStrindex() >= d.getStringTableCount()) {
                            return "a line's function out of range: " + line;
                        }
                    }
                }
                for (int attribute : sample.getAttributeIndicesList()) {
                    if (attribute <= 0 || attribute >= d.getAttributeTableCount()) {
                        return "a sample's attribute out of range: " + attribute;
                    }
                }
            }
        }
        return null;
    }

    public static List<Profile> profiles(ExportProfilesServiceRequest request) {
        List<Profile> profiles = new ArrayList<>();
        request.getResourceProfilesList().forEach(r -> r.getScopeProfilesList().forEach(s -> profiles.addAll(s.getProfilesList())));
        return profiles;
    }

    /** The request's first resource's attributes, their values as strings. */
    public static Map<String, String> resource(ExportProfilesServiceRequest request) {
        Map<String, String> attributes = new HashMap<>();
        for (KeyValue kv : request.getResourceProfiles(0).getResource().getAttributesList()) {
            attributes.put(kv.getKey(), kv.getValue().hasIntValue() ? Long.toString(kv.getValue().getIntValue())
                    : kv.getValue().getStringValue());
        }
        return attributes;
    }

    /** Each function's share of the samples: those whose stack holds it, over all. */
    public static Map<String, Double> shares(ExportProfilesServiceRequest request) {
        ProfilesDictionary d = request.getDictionary();
        Map<String, Long> holding = new HashMap<>();
        long total = 0;
        for (Profile profile : profiles(request)) {
            for (Sample sample : profile.getSamplesList()) {
                long count = sample.getValues(0);
                total += count;
                Set<String> on = new HashSet<>();
                for (int location : d.getStackTable(sample.getStackIndex()).getLocationIndicesList()) {
                    d.getLocationTable(location).getLinesList().forEach(line ->
                            on.add(d.getStringTable(d.getFunctionTable(line.getFunctionIndex()).getNameStrindex())));
                }
                on.forEach(function -> holding.merge(function, count, Long::sum));
            }
        }
        Map<String, Double> shares = new HashMap<>();
        long all = total;
        holding.forEach((function, count) -> shares.put(function, count / (double) all));
        return shares;
    }

    @Override
    public void close() {
        server.close();
    }
}
