package dev.remora.app.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** The target programs {@code remora bench} measures against, shipped as resources. */
public enum Workload {
    basic("mixed loop: recursion, arithmetic, string work, nested closures"),
    deep_static("a 900-frame deep stack that never changes"),
    threads("dozens of threads coming and going, mixing CPU work and sleeps"),
    asyncio("an event loop running a tree of task groups whose leaves mix CPU work and sleeps");

    private final String description;

    Workload(String description) {
        this.description = description;
    }

    public String description() {
        return description;
    }

    /** Whether the workload runs an asyncio event loop, which the task-reading APIs need. */
    public boolean runsTasks() {
        return this == asyncio;
    }

    /** The program's source, run with {@code python -c} so it needs no file in the target's root. */
    public String source() {
        return resource("bench/" + name() + ".py");
    }

    static String resource(String name) {
        try (InputStream in = Workload.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
