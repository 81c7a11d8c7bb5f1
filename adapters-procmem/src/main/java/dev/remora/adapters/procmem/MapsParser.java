package dev.remora.adapters.procmem;

import dev.remora.ports.MemoryMapping;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Parses /proc/PID/maps lines such as
 * {@code 7f0a1c000000-7f0a1c021000 r-xp 00001000 fe:00 1234    /usr/lib/libpython3.11.so.1.0}.
 */
final class MapsParser {

    private static final String DELETED = " (deleted)";

    private MapsParser() {}

    static List<MemoryMapping> parse(String maps) {
        List<MemoryMapping> mappings = new ArrayList<>();
        for (String line : maps.split("\n")) {
            if (!line.isEmpty()) {
                mappings.add(parseLine(line));
            }
        }
        return mappings;
    }

    static MemoryMapping parseLine(String line) {
        try {
            Cursor c = new Cursor(line);
            String range = c.field();
            String permissions = c.field();
            long offset = Long.parseUnsignedLong(c.field(), 16);
            c.field(); // device
            c.field(); // inode
            // The path is everything after the padding, spaces included.
            String path = line.substring(c.skipSpaces());

            int dash = range.indexOf('-');
            long start = Long.parseUnsignedLong(range.substring(0, dash), 16);
            long end = Long.parseUnsignedLong(range.substring(dash + 1), 16);

            boolean deleted = path.endsWith(DELETED);
            if (deleted) {
                path = path.substring(0, path.length() - DELETED.length());
            }
            return new MemoryMapping(start, end, permissions, offset,
                    path.isEmpty() ? Optional.empty() : Optional.of(path), deleted);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("unparseable maps line: " + line, e);
        }
    }

    /** Walks the fixed, single-space separated leading fields. */
    private static final class Cursor {
        private final String line;
        private int at;

        Cursor(String line) {
            this.line = line;
        }

        String field() {
            int space = line.indexOf(' ', at);
            int end = space < 0 ? line.length() : space;
            if (end == at) {
                throw new IllegalArgumentException("missing field at column " + at);
            }
            String field = line.substring(at, end);
            at = Math.min(line.length(), end + 1);
            return field;
        }

        int skipSpaces() {
            while (at < line.length() && line.charAt(at) == ' ') {
                at++;
            }
            return at;
        }
    }
}
