package dev.remora.app.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
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
    private final HttpClient client;
    private final Duration timeout;

    OtlpSink(URI endpoint, List<Map.Entry<String, String>> headers, Duration timeout) {
        String base = endpoint.toString();
        // An endpoint given with the signal's path is taken as it is; a bare one gets the path.
        this.export = base.endsWith(PATH) ? endpoint
                : URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + PATH);
        this.headers = List.copyOf(headers);
        this.timeout = timeout;
        this.client = HttpClient.newBuilder().connectTimeout(timeout).build();
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
        HttpRequest.Builder request = HttpRequest.newBuilder(export)
                .timeout(timeout)
                .header("Content-Type", "application/x-protobuf")
                .POST(HttpRequest.BodyPublishers.ofByteArray(window.body(WireFormat.OTLP)));
        for (Map.Entry<String, String> header : headers) {
            request.setHeader(header.getKey(), header.getValue());
        }
        HttpResponse<String> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (HttpTimeoutException e) {
            throw new DeliveryFailure(DeliveryFailure.Next.RETRY, "no answer from " + export + " within "
                    + timeout.toMillis() / 1000.0 + " s");
        } catch (IOException e) {
            throw new DeliveryFailure(DeliveryFailure.Next.RETRY, "cannot reach " + export + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new DeliveryFailure(DeliveryFailure.Next.RETRY, "interrupted");
        }
        int status = response.statusCode();
        if (status / 100 == 2) {
            return;
        }
        boolean retryable = status == 429 || status == 502 || status == 503 || status == 504;
        throw new DeliveryFailure(retryable ? DeliveryFailure.Next.RETRY : DeliveryFailure.Next.DROP,
                export + " answered " + status);
    }
}
