package dev.remora.app.agent;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Sends each window to an OpenTelemetry collector (or Pyroscope's OTLP receiver) over OTLP/HTTP:
 * {@code POST /v1development/profiles}, an {@code ExportProfilesServiceRequest} in binary protobuf.
 * As OTLP/HTTP specifies, 429, 502, 503 and 504 are tried again, as are failures to connect; other
 * answers outside 2xx refuse the window.
 */
final class OtlpSink implements Sink {

    static final String PATH = "/v1development/profiles";

    private final URI export;
    private final List<Map.Entry<String, String>> headers;
    private final HttpPoster poster;

    OtlpSink(URI endpoint, List<Map.Entry<String, String>> headers, Duration timeout) {
        String base = endpoint.toString();
        // An endpoint given with the signal's path is taken as it is; a bare one gets the path.
        this.export = base.endsWith(PATH) ? endpoint
                : URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + PATH);
        this.headers = List.copyOf(headers);
        this.poster = new HttpPoster(timeout);
    }

    @Override
    public String name() {
        return "otlp " + export;
    }

    @Override
    public WireFormat format() {
        return WireFormat.OTLP;
    }

    @Override
    public void deliver(ProfileWindow window) throws DeliveryFailure {
        HttpRequest.Builder request = poster.post(export, "application/x-protobuf", window.body(WireFormat.OTLP));
        for (Map.Entry<String, String> header : headers) {
            request.setHeader(header.getKey(), header.getValue());
        }
        HttpPoster.Answer answer = poster.send(request.build());
        if (answer.accepted()) {
            return;
        }
        int status = answer.status();
        boolean retryable = status == 429 || status == 502 || status == 503 || status == 504;
        throw new DeliveryFailure(retryable ? DeliveryFailure.Next.RETRY : DeliveryFailure.Next.DROP, answer.describe(export));
    }
}
