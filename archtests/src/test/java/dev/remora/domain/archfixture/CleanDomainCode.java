package dev.remora.domain.archfixture;

import dev.remora.ports.RemoteMemory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/** Test fixture: what domain code may use (records, collections, buffers, charsets, ports). */
public record CleanDomainCode(RemoteMemory memory, List<String> names) {

    public String decode(byte[] raw) {
        ByteBuffer buffer = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        return "value " + buffer.getLong(0) + " " + new String(raw, StandardCharsets.UTF_8);
    }

    public Optional<String> first() {
        return names.stream().findFirst();
    }

    public static UncheckedIOException wrap(IOException e) {
        return new UncheckedIOException(e);
    }
}
