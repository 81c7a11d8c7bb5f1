package dev.remora.app.output.asyncio;

import dev.remora.domain.asyncio.AsyncSnapshot;

import java.io.PrintWriter;

/** Renders an asyncio task graph. */
public interface AsyncWriter {
    void write(AsyncSnapshot snapshot, PrintWriter out);
}
