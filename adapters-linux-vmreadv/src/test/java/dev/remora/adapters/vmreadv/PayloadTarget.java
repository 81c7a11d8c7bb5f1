package dev.remora.adapters.vmreadv;

import dev.remora.ports.testing.PythonTarget;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

/**
 * A python3 child holding {@code payload}, random bytes from a fixed seed, and the addresses the
 * tests read: the payload's, and an edge region of two readable pages before an unmapped one.
 */
record PayloadTarget(PythonTarget process, byte[] payload, long payloadAddr, long edgeAddr, int page)
        implements AutoCloseable {

    static PayloadTarget start(Path dir, int bytes, long seed) throws IOException {
        byte[] payload = new byte[bytes];
        new Random(seed).nextBytes(payload);
        Path file = dir.resolve("payload.bin");
        Files.write(file, payload);
        PythonTarget process = PythonTarget.start("payload=" + file);
        if (process.number("payload_len") != bytes) {
            throw new IllegalStateException("target holds " + process.number("payload_len") + " bytes, not " + bytes);
        }
        return new PayloadTarget(process, payload, process.number("payload_addr"), process.number("edge_addr"),
                Math.toIntExact(process.number("page_size")));
    }

    int pid() {
        return process.pid();
    }

    byte[] slice(int from, int length) {
        return Arrays.copyOfRange(payload, from, from + length);
    }

    @Override
    public void close() {
        process.close();
    }
}
