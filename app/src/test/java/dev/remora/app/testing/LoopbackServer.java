package dev.remora.app.testing;

import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;

/** An HTTP server on a free loopback port, each request on a thread of its own: what the stand-in back ends run on. */
final class LoopbackServer implements AutoCloseable {

    private final HttpServer server;

    private LoopbackServer(HttpServer server) {
        this.server = server;
    }

    static LoopbackServer start(HttpHandler handler) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", handler);
        server.setExecutor(task -> Thread.ofPlatform().daemon().start(task));
        server.start();
        return new LoopbackServer(server);
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
