package dev.remora.app.agent;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Uploads each window to Grafana Pyroscope's {@code POST /ingest}, as its HTTP API documents: the
 * gzipped pprof as the raw body ({@code format=pprof}), the service and its labels in {@code name}
 * ({@code service{k=v,...}}), the window in {@code from} and {@code until} (Unix seconds), the rate
 * in {@code sampleRate}, and {@code spyName=remora}. Pyroscope takes the profile's type and units
 * from the pprof itself.
 */
final class PyroscopeSink implements Sink {

    static final String SPY_NAME = "remora";
    /** How long a request may take before it counts as failed, and is tried again. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    /** How a request proves who sends it: nothing, a tenant, a user and password, a token; and extra headers. */
    record Auth(String tenantId, String basicAuth, String bearerToken, List<Map.Entry<String, String>> headers) {
        static final Auth NONE = new Auth(null, null, null, List.of());
    }

    private final URI ingest;
    private final Auth auth;
    private final HttpPoster poster;

    PyroscopeSink(URI server, Auth auth) {
        this(server, auth, TIMEOUT);
    }

    PyroscopeSink(URI server, Auth auth, Duration timeout) {
        String base = server.toString();
        this.ingest = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/ingest");
        this.auth = auth;
        this.poster = new HttpPoster(timeout);
    }

    @Override
    public String name() {
        return "pyroscope " + ingest;
    }

    @Override
    public WireFormat format() {
        return WireFormat.PPROF;
    }

    @Override
    public void deliver(ProfileWindow window) throws DeliveryFailure {
        HttpRequest.Builder request = poster.post(URI.create(ingest + "?" + query(window)), "application/octet-stream",
                window.body(WireFormat.PPROF));
        if (auth.tenantId() != null) {
            request.header("X-Scope-OrgID", auth.tenantId());
        }
        if (auth.basicAuth() != null) {
            request.header("Authorization", "Basic " + java.util.Base64.getEncoder()
                    .encodeToString(auth.basicAuth().getBytes(StandardCharsets.UTF_8)));
        } else if (auth.bearerToken() != null) {
            request.header("Authorization", "Bearer " + auth.bearerToken());
        }
        for (Map.Entry<String, String> header : auth.headers()) {
            request.setHeader(header.getKey(), header.getValue());
        }
        HttpPoster.Answer answer = poster.send(request.build());
        if (answer.accepted()) {
            return;
        }
        int status = answer.status();
        // 400, 413 and 422 are about the window itself; the rest (408, 429, 5xx, and 401, 403 or 404 that an
        // operator fixes in the configuration or the proxy) may pass later.
        boolean refused = status == 400 || status == 413 || status == 422;
        throw new DeliveryFailure(refused ? DeliveryFailure.Next.DROP : DeliveryFailure.Next.RETRY, answer.describe(ingest));
    }

    /** The query string, in the order Pyroscope's own clients send it. */
    static String query(ProfileWindow window) {
        return "name=" + encode(name(window.labels()))
                + "&from=" + window.fromMillis() / 1000
                + "&until=" + Math.max(window.fromMillis() / 1000 + 1, (window.untilMillis() + 999) / 1000)
                + "&format=pprof"
                + "&sampleRate=" + window.rateHz()
                + "&spyName=" + SPY_NAME;
    }

    /**
     * {@code service{k=v,...}}: Pyroscope ends a value at {@code ,} or {@code }}, so those become
     * {@code _} in values; names were checked when the labels were made.
     */
    static String name(ProcessLabels labels) {
        StringBuilder name = new StringBuilder(labels.serviceName()).append('{');
        boolean first = true;
        for (Map.Entry<String, String> label : labels.labels().entrySet()) {
            if (!first) {
                name.append(',');
            }
            first = false;
            name.append(label.getKey()).append('=').append(label.getValue().replaceAll("[,{}\\s]", "_"));
        }
        return name.append('}').toString();
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8);
    }
}
