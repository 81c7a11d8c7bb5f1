package dev.remora.app.agent;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** The sinks the command line can ask for. */
public final class AgentSinks {

    private AgentSinks() {}

    public static Sink directory(Path directory, long maxAgeMillis, long maxBytes) throws IOException {
        return new DirectorySink(directory, maxAgeMillis, maxBytes);
    }

    /** OTLP/HTTP profiles to {@code endpoint} (its {@code /v1development/profiles}), with these headers. */
    public static Sink otlp(URI endpoint, List<Map.Entry<String, String>> headers) {
        return new OtlpSink(endpoint, headers, PyroscopeSink.TIMEOUT);
    }

    /** @param basicAuth USER:PASSWORD, or null; @param token a bearer token, or null */
    public static Sink pyroscope(URI server, String tenantId, String basicAuth, String token,
                                 List<Map.Entry<String, String>> headers) {
        return new PyroscopeSink(server, new PyroscopeSink.Auth(tenantId, basicAuth, token, headers));
    }
}
