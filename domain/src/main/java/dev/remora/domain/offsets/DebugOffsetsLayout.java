package dev.remora.domain.offsets;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The order of the fields of {@code _Py_DebugOffsets} in one CPython minor version, written down in
 * that version's own file ({@code versions/CPython3_X.java}).
 *
 * <p>The struct carries no layout version or total size, so the reader picks the layout from the
 * target's {@code version}. Every field after the 24-byte head is a {@code uint64_t}; between
 * versions fields were only inserted, which is how the later layouts are written down
 * ({@link #inserting}).
 */
public final class DebugOffsetsLayout {

    /** cookie[8], version, free_threaded. */
    public static final int HEAD_SIZE = 24;

    private final String version;
    private final List<String> fields;
    private final Map<String, Integer> positions;

    private DebugOffsetsLayout(String version, List<String> fields) {
        this.version = version;
        this.fields = List.copyOf(fields);
        this.positions = IntStream.range(0, fields.size()).boxed()
                .collect(Collectors.toUnmodifiableMap(fields::get, Function.identity()));
    }

    /** The layout of CPython {@code version} ("3.13"): its fields in order. */
    public static DebugOffsetsLayout of(String version, List<String> fields) {
        return new DebugOffsetsLayout(version, fields);
    }

    /** This layout's fields with more inserted, to be named as a later version's by {@link Insertions#as}. */
    public Insertions inserting() {
        return new Insertions(new ArrayList<>(fields));
    }

    /** A later version's fields, written as insertions into an earlier one's. */
    public static final class Insertions {
        private final List<String> fields;

        private Insertions(List<String> fields) {
            this.fields = fields;
        }

        public Insertions after(String anchor, String... inserted) {
            int at = fields.indexOf(anchor);
            if (at < 0) {
                throw new IllegalStateException("no field " + anchor);
            }
            fields.addAll(at + 1, List.of(inserted));
            return this;
        }

        public Insertions atEnd(String... appended) {
            fields.addAll(List.of(appended));
            return this;
        }

        public DebugOffsetsLayout as(String version) {
            return new DebugOffsetsLayout(version, fields);
        }
    }

    public static Optional<DebugOffsetsLayout> forVersion(PythonVersion version) {
        return VersionLayout.forVersion(version).flatMap(VersionLayout::exported);
    }

    /** The oldest supported version whose layout has {@code field}, as "3.14". */
    public static Optional<String> firstWith(String field) {
        return VersionLayout.all().stream().flatMap(v -> v.exported().stream())
                .filter(layout -> layout.positions.containsKey(field)).findFirst().map(layout -> layout.version);
    }

    /** Size in bytes of the whole struct in this layout. */
    public int totalSize() {
        return HEAD_SIZE + 8 * fields.size();
    }

    /** Byte position of a field inside the struct, if this version has it. */
    public Optional<Integer> bytePosition(String field) {
        Integer index = positions.get(field);
        return index == null ? Optional.empty() : Optional.of(HEAD_SIZE + 8 * index);
    }
}
