package dev.remora.app.agent;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * The variables of a process's environment as it was started ({@code /proc/PID/environ}; what the
 * process sets later is not there), read up to a bound: the ones asked for, those it has.
 */
final class ProcessEnvironment {

    /** More than any environment a process is started with: a larger file is read this far. */
    static final int MAX_BYTES = 1 << 20;

    private ProcessEnvironment() {}

    /** The variables among {@code wanted} that process {@code pid} was started with; none where it cannot be read. */
    static Map<String, String> of(int pid, Set<String> wanted) {
        if (wanted.isEmpty()) {
            return Map.of();
        }
        try (InputStream in = Files.newInputStream(Path.of("/proc", Integer.toString(pid), "environ"))) {
            byte[] environ = in.readNBytes(MAX_BYTES);
            // Cut at the bound: the last entry may be cut in the middle of its value, and is left out.
            return parse(environ.length < MAX_BYTES ? environ : Arrays.copyOf(environ, lastEntryEnd(environ)), wanted);
        } catch (IOException | RuntimeException e) {
            return Map.of();
        }
    }

    /** Where the last whole (NUL-ended) entry ends. */
    private static int lastEntryEnd(byte[] environ) {
        int end = environ.length;
        while (end > 0 && environ[end - 1] != 0) {
            end--;
        }
        return end;
    }

    /** From NUL-ended {@code NAME=VALUE} entries; entries without {@code =}, or not valid UTF-8, are read as they come. */
    static Map<String, String> parse(byte[] environ, Set<String> wanted) {
        Map<String, String> found = new HashMap<>();
        int start = 0;
        while (start < environ.length) {
            int end = start;
            while (end < environ.length && environ[end] != 0) {
                end++;
            }
            String entry = new String(environ, start, end - start, StandardCharsets.UTF_8);
            int equals = entry.indexOf('=');
            if (equals > 0 && wanted.contains(entry.substring(0, equals))) {
                found.putIfAbsent(entry.substring(0, equals), entry.substring(equals + 1));
            }
            start = end + 1;
        }
        return Map.copyOf(found);
    }
}
