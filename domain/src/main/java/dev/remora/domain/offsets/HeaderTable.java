package dev.remora.domain.offsets;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * A version's layout as generated from its own headers ({@code scripts/version-tables}): one
 * {@code name value} line per size, offset or enum value, values in decimal or {@code 0x} hex.
 */
public final class HeaderTable implements FieldTable {

    private final String version;
    private final String fromRelease;
    private final Map<String, Long> values;

    private HeaderTable(String version, String fromRelease, Map<String, Long> values) {
        this.version = version;
        this.fromRelease = fromRelease;
        this.values = Map.copyOf(values);
    }

    /**
     * @param version the minor version the table serves, as "3.12"
     * @param fromRelease the release whose headers gave it, as "3.12.1"
     * @throws IllegalArgumentException for a line that is not {@code name value}: the table is source code
     */
    public static HeaderTable parse(String version, String fromRelease, String text) {
        Map<String, Long> values = new HashMap<>();
        for (String line : text.split("\n")) {
            String trimmed = line.strip();
            if (trimmed.isEmpty()) {
                continue;
            }
            String[] parts = trimmed.split("\\s+");
            if (parts.length != 2 || values.containsKey(parts[0])) {
                throw new IllegalArgumentException("bad line in the CPython " + version + " table: " + line);
            }
            values.put(parts[0], Long.decode(parts[1]));
        }
        return new HeaderTable(version, fromRelease, values);
    }

    public String fromRelease() {
        return fromRelease;
    }

    @Override
    public OptionalLong value(String name) {
        Long v = values.get(name);
        return v == null ? OptionalLong.empty() : OptionalLong.of(v);
    }

    /** A value the decoder needs for more than an offset (an enum constant, say). */
    public long require(String name) {
        Long v = values.get(name);
        if (v == null) {
            throw new IllegalStateException("the CPython " + version + " table has no " + name);
        }
        return v;
    }

    @Override
    public String source() {
        return "the CPython " + version + " table (from " + fromRelease + "'s headers)";
    }
}
