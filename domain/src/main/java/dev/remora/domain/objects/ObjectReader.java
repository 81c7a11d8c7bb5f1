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

    // PyASCIIObject.state bit-fields of GIL builds: interned:2, kind:3, compact:1, ascii:1.
    private static final int KIND_SHIFT = 2;
    private static final int KIND_MASK = 0b111;
    private static final int COMPACT_BIT = 1 << 5;
    private static final int ASCII_BIT = 1 << 6;

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
        int state = Bytes.getInt(header, unicode.state());
        long length = Bytes.getLong(header, unicode.length());
        if ((state & COMPACT_BIT) == 0) {
            throw new MalformedObjectException("legacy (non-compact) str at 0x%x".formatted(address));
        }
        if (length < 0 || length > MAX_STRING_CHARS) {
            throw new MalformedObjectException("str length %d at 0x%x".formatted(length, address));
        }
        int kind = (state >>> KIND_SHIFT) & KIND_MASK;
        boolean ascii = (state & ASCII_BIT) != 0;
        if (kind != 1 && kind != 2 && kind != 4 || ascii && kind != 1) {
            throw new MalformedObjectException("str kind %d at 0x%x".formatted(kind, address));
        }
        long data = address + (ascii ? unicode.asciiDataOffset() : unicode.compactDataOffset());
        byte[] raw = new byte[(int) length * kind];
        reader.read(data, raw, 0, raw.length);
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
