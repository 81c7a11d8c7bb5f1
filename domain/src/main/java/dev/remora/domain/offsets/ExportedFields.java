package dev.remora.domain.offsets;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Optional;
import java.util.OptionalLong;

/** The fields of a target's raw {@code _Py_DebugOffsets}, placed by the version's field order. */
final class ExportedFields implements FieldTable {

    private final DebugOffsetsLayout layout;
    private final ByteBuffer raw;

    ExportedFields(DebugOffsetsLayout layout, byte[] raw) {
        this.layout = layout;
        this.raw = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public OptionalLong value(String name) {
        Optional<Integer> position = layout.bytePosition(name);
        return position.isEmpty() ? OptionalLong.empty() : OptionalLong.of(raw.getLong(position.get()));
    }

    @Override
    public String source() {
        return "debug offsets";
    }
}
