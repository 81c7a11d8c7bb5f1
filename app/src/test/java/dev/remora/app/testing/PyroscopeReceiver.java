package dev.remora.app.testing;

import com.sun.net.httpserver.HttpExchange;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * A stand-in for Grafana Pyroscope's {@code POST /ingest}, answering as told: it checks each request
 * as the real handler does (grafana/pyroscope {@code pkg/ingester/pyroscope/ingest_handler.go}, the
 * name parser in {@code api/model/labelset}) and refuses what it would refuse: a name that does not
 * parse (400), a body that is not pprof (422). No real Pyroscope runs in these tests; this is what
 * was checked instead.
 */
public final class PyroscopeReceiver implements AutoCloseable {

    /** How the receiver answers the next request. */
    public sealed interface Answer {
        /** The real server's answer: the request checked, 200 when it passes. */
        record AsPyroscope() implements Answer {}

        /** This status, whatever the request (a server that is down behind its proxy: 502, 503). */
        record Status(int code) implements Answer {}

        /** No answer for this long (a client's timeout). */
        record Silence(long millis) implements Answer {}

        /** The connection closed without an answer. */
        record Hangup() implements Answer {}
    }

    /** A request the receiver took (answered 200). */
    public record Ingested(Map<String, String> query, Map<String, List<String>> headers, String app,
                           Map<String, String> labels, byte[] pprof) {}

    private static final Pattern APP_NAME = Pattern.compile("[A-Za-z0-9_.\\-/]+");
    private static final Pattern LABEL_KEY = Pattern.compile("[A-Za-z0-9_.]+");
    private static final Pattern DIGITS = Pattern.compile("\\d+");

    private final LoopbackServer server;
    private final ArrayDeque<Answer> script = new ArrayDeque<>();
    private final List<Ingested> ingested = new ArrayList<>();
    private final List<String> refused = new ArrayList<>();
    private int requests;

    private PyroscopeReceiver() throws IOException {
        this.server = LoopbackServer.start(this::handle);
    }

    public static PyroscopeReceiver start() throws IOException {
        return new PyroscopeReceiver();
    }

    public URI url() {
        return server.url();
    }

    /** The next requests are answered so, in turn; after them, as Pyroscope would. */
    public synchronized void script(Answer... answers) {
        script.addAll(List.of(answers));
    }

    public synchronized List<Ingested> ingested() {
        return List.copyOf(ingested);
    }

    /** Why each request the checks refused was refused. */
    public synchronized List<String> refused() {
        return List.copyOf(refused);
    }

    public synchronized int requests() {
        return requests;
    }

    private void handle(HttpExchange exchange) throws IOException {
        Answer answer;
        synchronized (this) {
            requests++;
            answer = script.isEmpty() ? new Answer.AsPyroscope() : script.removeFirst();
        }
        byte[] body = exchange.getRequestBody().readAllBytes();
        switch (answer) {
            case Answer.Status(int code) -> respond(exchange, code, "scripted");
            case Answer.Silence(long millis) -> {
                try {
                    TimeUnit.MILLISECONDS.sleep(millis);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                respond(exchange, 200, "");
            }
            case Answer.Hangup() -> exchange.close();
            case Answer.AsPyroscope() -> {
                String why = check(exchange, body);
                if (why == null) {
                    respond(exchange, 200, "");
                } else {
                    synchronized (this) {
                        refused.add(why);
                    }
                    respond(exchange, why.startsWith("400") ? 400 : why.startsWith("405") ? 405 : 422, why);
                }
            }
        }
    }

    /** Null when Pyroscope would take the request (and it is recorded); else its status and why. */
    private String check(HttpExchange exchange, byte[] body) {
        if (!exchange.getRequestMethod().equals("POST")) {
            return "405 method " + exchange.getRequestMethod();
        }
        String path = exchange.getRequestURI().getPath();
        if (!path.equals("/ingest") && !path.equals("/pyroscope/ingest")) {
            return "400 path " + path;
        }
        Map<String, String> query = query(exchange.getRequestURI().getRawQuery());
        String name = query.getOrDefault("name", "");
        int brace = name.indexOf('{');
        String app = (brace < 0 ? name : name.substring(0, brace)).strip();
        if (app.isEmpty() || !APP_NAME.matcher(app).matches()) {
            return "400 name: invalid service name: " + app;
        }
        Map<String, String> labels = new LinkedHashMap<>();
        if (brace >= 0) {
            if (!name.endsWith("}")) {
                return "400 name: no closing brace (Pyroscope would drop the last label silently): " + name;
            }
            String inside = name.substring(brace + 1, name.length() - 1);
            for (String pair : inside.isEmpty() ? new String[0] : inside.split(",")) {
                int eq = pair.indexOf('=');
                String key = eq < 0 ? pair.strip() : pair.substring(0, eq).strip();
                if (eq < 0 || key.isEmpty() || !LABEL_KEY.matcher(key).matches()) {
                    return "400 name: invalid label name: " + pair;
                }
                if (labels.put(key, pair.substring(eq + 1).strip()) != null) {
                    return "422 duplicate label " + key;
                }
            }
        }
        for (String time : List.of("from", "until")) {
            if (!DIGITS.matcher(query.getOrDefault(time, "")).matches()) {
                return "400 " + time + " is not a Unix time: " + query.get(time);
            }
        }
        if (!"pprof".equals(query.get("format"))) {
            return "400 format " + query.get("format") + " (a raw pprof body needs format=pprof)";
        }
        if (!DIGITS.matcher(query.getOrDefault("sampleRate", "")).matches()) {
            return "400 sampleRate " + query.get("sampleRate");
        }
        byte[] pprof;
        try {
            pprof = gunzipIfGzipped(body);
        } catch (IOException e) {
            return "422 body is not pprof: " + e.getMessage();
        }
        if (pprof.length == 0 || (pprof[0] & 0xff) != 0x0a) { // field 1 (sample_type), length-delimited
            return "422 body is not a profile.proto";
        }
        synchronized (this) {
            ingested.add(new Ingested(query, Map.copyOf(exchange.getRequestHeaders()), app, labels, body));
        }
        return null;
    }

    private static byte[] gunzipIfGzipped(byte[] body) throws IOException {
        if (body.length >= 2 && (body[0] & 0xff) == 0x1f && (body[1] & 0xff) == 0x8b) {
            try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(body))) {
                return in.readAllBytes();
            }
        }
        return body;
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                String key = URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8);
                query.put(key, eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return query;
    }

    private static void respond(HttpExchange exchange, int status, String text) throws IOException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        if (bytes.length > 0) {
            exchange.getResponseBody().write(bytes);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.close();
    }
}
