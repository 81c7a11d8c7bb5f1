package dev.remora.app.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * One page in a headless Chromium, driven over the DevTools protocol with the JDK's own HTTP and
 * WebSocket clients, so browser tests need no driver library. Tests run JavaScript in the page to
 * query the DOM and to click, and take screenshots for people to look at.
 */
public final class ChromiumPage implements AutoCloseable {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    private final Path profileDir;
    private final HttpClient http;
    private final WebSocket socket;
    private final Replies replies;
    private final AtomicInteger nextId = new AtomicInteger(1);

    private ChromiumPage(Process process, Path profileDir, HttpClient http, WebSocket socket, Replies replies) {
        this.process = process;
        this.profileDir = profileDir;
        this.http = http;
        this.socket = socket;
        this.replies = replies;
    }

    /** Matches Chromium's replies to the commands waiting for them, by id; events (none are enabled) are dropped. */
    private static final class Replies implements WebSocket.Listener {

        private final Map<Integer, CompletableFuture<JsonNode>> pending = new ConcurrentHashMap<>();
        private final StringBuilder partial = new StringBuilder();

        CompletableFuture<JsonNode> expect(int id) {
            CompletableFuture<JsonNode> reply = new CompletableFuture<>();
            pending.put(id, reply);
            return reply;
        }

        void forget(int id) {
            pending.remove(id);
        }

        @Override
        public CompletionStage<?> onText(WebSocket socket, CharSequence data, boolean last) {
            // Large replies (screenshots) arrive in several parts.
            partial.append(data);
            if (last) {
                String text = partial.toString();
                partial.setLength(0);
                try {
                    JsonNode message = JSON.readTree(text);
                    CompletableFuture<JsonNode> waiting = message.has("id") ? pending.get(message.get("id").asInt()) : null;
                    if (waiting != null) {
                        waiting.complete(message);
                    }
                } catch (IOException e) {
                    pending.values().forEach(f -> f.completeExceptionally(e));
                }
            }
            socket.request(1);
            return null;
        }

        @Override
        public void onError(WebSocket socket, Throwable error) {
            pending.values().forEach(f -> f.completeExceptionally(error));
        }

        @Override
        public CompletionStage<?> onClose(WebSocket socket, int statusCode, String reason) {
            pending.values().forEach(f -> f.completeExceptionally(new IOException("DevTools connection closed: " + reason)));
            return null;
        }
    }

    /**
     * Installs Chromium if it is missing, with the project's script; throws if that fails, so a
     * browser test fails rather than skips on a machine without one.
     */
    public static void provision() {
        Path script = repositoryRoot().resolve("scripts/provision-browser.sh");
        ShortProcess.run(List.of(script.toString()), Duration.ofMinutes(10)).requireSuccess(script.toString());
        if (!Files.isExecutable(CHROMIUM)) {
            throw new IllegalStateException(script + " succeeded but " + CHROMIUM + " is missing");
        }
    }

    /** Starts a fresh Chromium (its own empty profile) showing {@code file} and waits until it has loaded. */
    public static ChromiumPage open(Path file) {
        Path profileDir = null;
        Process process = null;
        HttpClient http = HttpClient.newHttpClient();
        try {
            profileDir = Files.createTempDirectory("remora-chromium-");
            String url = file.toAbsolutePath().toUri().toString();
            process = new ProcessBuilder(List.of(CHROMIUM.toString(),
                    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                    "--no-first-run", "--no-default-browser-check", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync", "--disable-extensions", "--mute-audio",
                    "--window-size=1280,900", "--user-data-dir=" + profileDir, "--remote-debugging-port=0",
                    url))
                    .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
                    .redirectErrorStream(true)
                    .redirectOutput(profileDir.resolve("chromium.log").toFile())
                    .start();
            Replies replies = new Replies();
            WebSocket socket = http.newWebSocketBuilder()
                    .connectTimeout(COMMAND_TIMEOUT)
                    .buildAsync(pageSocketUrl(http, devToolsPort(process, profileDir)), replies)
                    .get(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            ChromiumPage page = new ChromiumPage(process, profileDir, http, socket, replies);
            // The page target can still show its first, blank document while the file loads.
            page.waitUntil("location.href === " + JSON.writeValueAsString(url) + " && document.readyState === 'complete'",
                    START_TIMEOUT);
            return page;
        } catch (IOException | ExecutionException | TimeoutException e) {
            String log = profileDir == null ? "" : logTail(profileDir); // before stop() deletes it
            http.close();
            stop(process, profileDir);
            throw new IllegalStateException("cannot start " + CHROMIUM + " and connect to it" + log, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            http.close();
            stop(process, profileDir);
            throw new IllegalStateException("interrupted starting " + CHROMIUM, e);
        } catch (RuntimeException | Error e) {
            http.close();
            stop(process, profileDir);
            throw e;
        }
    }

    /**
     * Evaluates a JavaScript expression in the page (awaiting it if it is a promise) and returns its
     * value as JSON; a thrown exception fails with its description.
     */
    public JsonNode evaluate(String expression) {
        ObjectNode params = JSON.createObjectNode()
                .put("expression", expression)
                .put("returnByValue", true)
                .put("awaitPromise", true);
        JsonNode result = send("Runtime.evaluate", params);
        if (result.has("exceptionDetails")) {
            JsonNode details = result.get("exceptionDetails");
            String description = details.path("exception").path("description").asText(details.path("text").asText());
            throw new IllegalStateException("JavaScript failed: " + description + "\n in: " + expression);
        }
        return result.path("result").path("value");
    }

    /**
     * Waits until a JavaScript expression is true in the page. Errors count as not yet: during a
     * navigation the expression can run in a document that is going away.
     */
    public void waitUntil(String condition, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        RuntimeException lastError = null;
        while (System.nanoTime() < deadline) {
            try {
                if (evaluate("Boolean(" + condition + ")").asBoolean()) {
                    return;
                }
            } catch (IllegalStateException e) {
                lastError = e;
            }
            sleep(50);
        }
        throw new IllegalStateException("timed out after " + timeout + " waiting for " + condition, lastError);
    }

    /** Saves a PNG of the visible part of the page. */
    public void screenshot(Path png) {
        JsonNode result = send("Page.captureScreenshot", JSON.createObjectNode().put("format", "png"));
        try {
            Files.createDirectories(png.toAbsolutePath().getParent());
            Files.write(png, Base64.getDecoder().decode(result.get("data").asText()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    @Override
    public void close() {
        try {
            socket.abort();
            http.close();
        } finally {
            stop(process, profileDir);
        }
    }

    private JsonNode send(String method, ObjectNode params) {
        int id = nextId.getAndIncrement();
        CompletableFuture<JsonNode> response = replies.expect(id);
        ObjectNode command = JSON.createObjectNode().put("id", id).put("method", method);
        command.set("params", params);
        try {
            socket.sendText(command.toString(), true).get(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            JsonNode message = response.get(COMMAND_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            if (message.has("error")) {
                throw new IllegalStateException(method + " failed: " + message.get("error"));
            }
            return message.path("result");
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(method + " got no answer from Chromium" + logTail(profileDir), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted waiting for " + method, e);
        } finally {
            replies.forget(id);
        }
    }

    /** Chromium writes the port it chose (for port 0) to DevToolsActivePort in its profile. */
    private static int devToolsPort(Process process, Path profileDir) throws IOException {
        Path portFile = profileDir.resolve("DevToolsActivePort");
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("Chromium exited with " + process.exitValue() + logTail(profileDir));
            }
            if (Files.exists(portFile)) {
                List<String> lines = Files.readAllLines(portFile, StandardCharsets.UTF_8);
                if (!lines.isEmpty() && !lines.getFirst().isBlank()) {
                    return Integer.parseInt(lines.getFirst().trim());
                }
            }
            sleep(50);
        }
        throw new IllegalStateException("Chromium wrote no DevToolsActivePort in " + START_TIMEOUT + logTail(profileDir));
    }

    private static URI pageSocketUrl(HttpClient http, int port) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/json/list"))
                .timeout(COMMAND_TIMEOUT).build();
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (true) {
            JsonNode targets = JSON.readTree(http.send(request, HttpResponse.BodyHandlers.ofString()).body());
            for (JsonNode target : targets) {
                if ("page".equals(target.path("type").asText())) {
                    return URI.create(target.get("webSocketDebuggerUrl").asText());
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("Chromium lists no page: " + targets);
            }
            sleep(50);
        }
    }

    private static void stop(Process process, Path profileDir) {
        if (process != null) {
            // Chromium runs as several processes; the children would outlive a killed parent.
            List<ProcessHandle> children = process.descendants().toList();
            process.destroyForcibly();
            children.forEach(ProcessHandle::destroyForcibly);
            try {
                process.waitFor(10, TimeUnit.SECONDS);
                for (ProcessHandle child : children) {
                    child.onExit().get(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException ignored) {
                // A child that will not go away is reaped by init; nothing else can be done here.
            }
        }
        if (profileDir != null) {
            try (Stream<Path> paths = Files.walk(profileDir)) {
                paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException | UncheckedIOException ignored) {
                // A leftover temp profile is harmless.
            }
        }
    }

    private static String logTail(Path profileDir) {
        try {
            List<String> lines = Files.readAllLines(profileDir.resolve("chromium.log"), StandardCharsets.UTF_8);
            return "\n--- chromium output ---\n" + String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
        } catch (IOException | RuntimeException e) {
            return "";
        }
    }

    /** The checkout, found from the module directory Surefire runs in. */
    private static Path repositoryRoot() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            if (Files.isRegularFile(dir.resolve("scripts/provision-browser.sh"))) {
                return dir;
            }
        }
        throw new IllegalStateException("no scripts/provision-browser.sh above " + Path.of("").toAbsolutePath());
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }
}
