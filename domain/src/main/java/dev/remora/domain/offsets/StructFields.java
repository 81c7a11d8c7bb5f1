package dev.remora.domain.offsets;

import dev.remora.domain.InspectionException.CorruptTarget;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads named fields out of the raw {@code _Py_DebugOffsets} bytes and checks each against the size
 * of the struct it points into, so nothing read from the target is trusted unchecked.
 */
final class StructFields {

    private final DebugOffsetsLayout layout;
    private final ByteBuffer raw;

    StructFields(DebugOffsetsLayout layout, byte[] raw) {
        this.layout = layout;
        this.raw = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    }

    /** A struct's {@code size} field: it must be non-zero and at most {@code max}. */
    long size(String struct, long max) throws CorruptTarget {
        long size = value(struct + ".size");
        if (size <= 0 || size > max) {
            throw new CorruptTarget("debug offsets: %s.size = %d is out of range (1..%d)".formatted(struct, size, max));
        }
        return size;
    }

    /** A field's offset; {@code offset + width} must fit in {@code structSize}. */
    long field(String name, long structSize, int width) throws CorruptTarget {
        return checked(name, value(name), structSize, width);
    }

    /** Whether this version's layout has the field. */
    boolean has(String name) {
        return layout.bytePosition(name).isPresent();
    }

    /** A field that only some versions export. */
    OptionalLong optionalField(String name, long structSize, int width) throws CorruptTarget {
        Optional<Integer> position = layout.bytePosition(name);
        if (position.isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(checked(name, raw.getLong(position.get()), structSize, width));
    }

    /** A plain value (not an offset into a struct), bounded. */
    long bounded(String name, long min, long max) throws CorruptTarget {
        long v = value(name);
        if (v < min || v > max) {
            throw new CorruptTarget("debug offsets: %s = %d is out of range (%d..%d)".formatted(name, v, min, max));
        }
        return v;
    }

    OptionalLong optionalBounded(String name, long min, long max) throws CorruptTarget {
        if (layout.bytePosition(name).isEmpty()) {
            return OptionalLong.empty();
        }
        return OptionalLong.of(bounded(name, min, max));
    }

    private long value(String name) throws CorruptTarget {
        Optional<Integer> position = layout.bytePosition(name);
        if (position.isEmpty()) {
            throw new CorruptTarget("debug offsets: layout " + layout + " has no field " + name);
        }
        return raw.getLong(position.get());
    }

    private static long checked(String name, long offset, long structSize, int width) throws CorruptTarget {
        if (offset < 0 || offset + width > structSize) {
            throw new CorruptTarget("debug offsets: %s = %d does not fit a %d-byte field in a %d-byte struct"
                    .formatted(name, offset, width, structSize));
        }
        return offset;
    }
}
