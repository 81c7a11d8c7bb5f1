package dev.remora.app.agent;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;

/**
 * Posts a window's body and returns the answer; not getting one (no connection, a reset, no answer
 * within the timeout) is a failure to try again. What an answer means is each back end's own.
 */
final class HttpPoster {

    /** A back end's answer: its status, and the start of what it said. */
    record Answer(int status, String said) {
        boolean accepted() {
            return status / 100 == 2;
        }

        /** The answer for a log line: the status, and what the back end said, if anything. */
        String describe(URI where) {
            return where + " answered " + status + (said.isBlank() ? "" : ": " + said.strip());
        }
    }

    private final HttpClient client;
    private final Duration timeout;

    HttpPoster(Duration timeout) {
        this.timeout = timeout;
        this.client = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    /** A POST of {@code body} to {@code uri}, with this poster's timeout. */
    HttpRequest.Builder post(URI uri, String contentType, byte[] body) {
        return HttpRequest.newBuilder(uri).timeout(timeout).header("Content-Type", contentType)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    }

    Answer send(HttpRequest request) throws Sink.DeliveryFailure {
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            String body = response.body();
            return new Answer(response.statusCode(), body.length() > 200 ? body.substring(0, 200) + "..." : body);
        } catch (HttpTimeoutException e) {
            throw new Sink.DeliveryFailure(Sink.DeliveryFailure.Next.RETRY, "no answer from " + request.uri()
                    + " within " + timeout.toMillis() / 1000.0 + " s");
        } catch (IOException e) {
            throw new Sink.DeliveryFailure(Sink.DeliveryFailure.Next.RETRY, "cannot reach " + request.uri() + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Sink.DeliveryFailure(Sink.DeliveryFailure.Next.RETRY, "interrupted");
        }
    }
}
