package dev.remora.domain.offsets;

import dev.remora.domain.InspectionException.CorruptTarget;

import java.util.OptionalLong;

/**
 * Reads named fields out of a version's {@link FieldTable} and checks each against the size of the
 * struct it points into, so nothing read from the target (or a table made for another build) is
 * trusted unchecked.
 */
final class StructFields {

    private final FieldTable table;

    StructFields(FieldTable table) {
        this.table = table;
    }

    /** A struct's {@code size} field: it must be non-zero and at most {@code max}. */
    long size(String struct, long max) throws CorruptTarget {
        long size = value(struct + ".size");
        if (size <= 0 || size > max) {
            throw new CorruptTarget("%s: %s.size = %d is out of range (1..%d)".formatted(table.source(), struct, size, max));
        }
        return size;
    }

    /** A field's offset; {@code offset + width} must fit in {@code structSize}. */
    long field(String name, long structSize, int width) throws CorruptTarget {
        return checked(name, value(name), structSize, width);
    }

    /** Whether this version has the field. */
    boolean has(String name) {
        return table.value(name).isPresent();
    }

    /** A field that only some versions have. */
    OptionalLong optionalField(String name, long structSize, int width) throws CorruptTarget {
        OptionalLong v = table.value(name);
        return v.isEmpty() ? v : OptionalLong.of(checked(name, v.getAsLong(), structSize, width));
    }

    /** A plain value (not an offset into a struct), bounded. */
    long bounded(String name, long min, long max) throws CorruptTarget {
        long v = value(name);
        if (v < min || v > max) {
            throw new CorruptTarget("%s: %s = %d is out of range (%d..%d)".formatted(table.source(), name, v, min, max));
        }
        return v;
    }

    OptionalLong optionalBounded(String name, long min, long max) throws CorruptTarget {
        return has(name) ? OptionalLong.of(bounded(name, min, max)) : OptionalLong.empty();
    }

    private long value(String name) throws CorruptTarget {
        OptionalLong v = table.value(name);
        if (v.isEmpty()) {
            throw new CorruptTarget(table.source() + " has no field " + name);
        }
        return v.getAsLong();
    }

    private long checked(String name, long offset, long structSize, int width) throws CorruptTarget {
        if (offset < 0 || offset + width > structSize) {
            throw new CorruptTarget("%s: %s = %d does not fit a %d-byte field in a %d-byte struct"
                    .formatted(table.source(), name, offset, width, structSize));
        }
        return offset;
    }
}
