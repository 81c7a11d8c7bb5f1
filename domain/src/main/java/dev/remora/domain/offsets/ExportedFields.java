package dev.remora.domain.offsets;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * The fields of a target's raw {@code _Py_DebugOffsets}, placed by the version's field order; the
 * facts the version does not export come from its own table of them.
 */
final class ExportedFields implements FieldTable {

    private final DebugOffsetsLayout layout;
    private final ByteBuffer raw;
    private final Optional<HeaderTable> unexported;

    ExportedFields(DebugOffsetsLayout layout, byte[] raw, Optional<HeaderTable> unexported) {
        this.layout = layout;
        this.raw = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
        this.unexported = unexported;
    }

    @Override
    public OptionalLong value(String name) {
        Optional<Integer> position = layout.bytePosition(name);
        if (position.isPresent()) {
            return OptionalLong.of(raw.getLong(position.get()));
        }
        return unexported.isPresent() ? unexported.get().value(name) : OptionalLong.empty();
    }

    @Override
    public String source() {
        return "debug offsets";
    }
}
