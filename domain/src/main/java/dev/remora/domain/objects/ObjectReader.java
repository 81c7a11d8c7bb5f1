package dev.remora.domain.objects;

import dev.remora.domain.memory.Bytes;
import dev.remora.domain.memory.SnapshotReader;
import dev.remora.domain.offsets.DebugOffsets;
import dev.remora.ports.MemoryAccessException;

import java.nio.charset.StandardCharsets;

/**
 * Decodes {@code str} and {@code bytes} objects of the target. Strings of every compact kind are
 * decoded: ASCII and UCS1 (1 byte per character), UCS2 and UCS4.
 */
public final class ObjectReader {

    /** Longer names or tables than this are treated as garbage, not read. */
    public static final int MAX_STRING_CHARS = 1 << 20;
    public static final int MAX_BYTES = 16 << 20;

    private final SnapshotReader reader;
    private final DebugOffsets.Unicode unicode;
    private final DebugOffsets.Bytes bytes;
    private final byte[] header;

    public ObjectReader(SnapshotReader reader, DebugOffsets offsets) {
        this.reader = reader;
        this.unicode = offsets.unicode();
        this.bytes = offsets.bytes();
        this.header = new byte[(int) Math.max(unicode.size(), bytes.size())];
    }

    public String readString(long address) throws MemoryAccessException, MalformedObjectException {
        if (address == 0) {
            throw new MalformedObjectException("NULL string pointer");
        }
        reader.read(address, header, 0, (int) unicode.size());
        CompactStr str = CompactStr.of(address, Bytes.getInt(header, unicode.state()), Bytes.getLong(header, unicode.length()),
                MAX_STRING_CHARS, unicode);
        int kind = str.kind();
        byte[] raw = new byte[(int) str.length() * kind];
        reader.read(str.data(), raw, 0, raw.length);
        return switch (kind) {
            case 1 -> new String(raw, StandardCharsets.ISO_8859_1);
            case 2 -> new String(raw, StandardCharsets.UTF_16LE);
            default -> decodeUcs4(raw, address);
        };
    }

    public byte[] readBytes(long address) throws MemoryAccessException, MalformedObjectException {
        if (address == 0) {
            throw new MalformedObjectException("NULL bytes pointer");
        }
        reader.read(address, header, 0, (int) bytes.size());
        long size = Bytes.getLong(header, bytes.obSize());
        if (size < 0 || size > MAX_BYTES) {
            throw new MalformedObjectException("bytes size %d at 0x%x".formatted(size, address));
        }
        byte[] data = new byte[(int) size];
        reader.read(address + bytes.obSval(), data, 0, data.length);
        return data;
    }

    private static String decodeUcs4(byte[] raw, long address) throws MalformedObjectException {
        int[] codePoints = new int[raw.length / 4];
        for (int i = 0; i < codePoints.length; i++) {
            int cp = Bytes.getInt(raw, i * 4);
            if (!Character.isValidCodePoint(cp)) {
                throw new MalformedObjectException("invalid code point in str at 0x%x".formatted(address));
            }
            codePoints[i] = cp;
        }
        return new String(codePoints, 0, codePoints.length);
    }
}
