package dev.remora.domain.nativestack;

import dev.remora.ports.FileBytes;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A minimal x86-64 shared object, written byte by byte: one PT_LOAD mapping the file at address 0,
 * and one call frame section (.eh_frame or .debug_frame) at its file offset, which is also its address.
 */
final class TinyElf {

    private static final int SECTION_AT = 0x100;

    private TinyElf() {}

    static byte[] withSection(String name, byte[] contents) {
        return withSection(name, contents, 0);
    }

    /** With the section's header flags ({@code sh_flags}) set to {@code flags}. */
    static byte[] withSection(String name, byte[] contents, long flags) {
        byte[] names = ("\0" + name + "\0.shstrtab\0").getBytes(StandardCharsets.US_ASCII);
        int namesAt = SECTION_AT + contents.length;
        int headersAt = (namesAt + names.length + 7) & ~7;
        int size = headersAt + 3 * 64;
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1});
        b.putShort(16, (short) 3).putShort(18, (short) 62).putInt(20, 1);
        b.putLong(32, 64).putLong(40, headersAt);
        b.putShort(52, (short) 64).putShort(54, (short) 56).putShort(56, (short) 1);
        b.putShort(58, (short) 64).putShort(60, (short) 3).putShort(62, (short) 2);
        // PT_LOAD r-x: the whole file at address 0
        b.putInt(64, 1).putInt(68, 5).putLong(72, 0).putLong(80, 0).putLong(88, 0)
                .putLong(96, size).putLong(104, 0x2000).putLong(112, 0x1000);
        b.put(SECTION_AT, contents).put(namesAt, names);
        section(b, headersAt + 64, 1, 1, SECTION_AT, SECTION_AT, contents.length);
        b.putLong(headersAt + 64 + 8, flags);
        section(b, headersAt + 128, 1 + name.length() + 1, 3, 0, namesAt, names.length);
        return b.array();
    }

    private static void section(ByteBuffer b, int at, int name, int type, long address, long offset, long size) {
        b.putInt(at, name).putInt(at + 4, type).putLong(at + 0x10, address).putLong(at + 0x18, offset).putLong(at + 0x20, size);
    }

    /** The bytes as a file the target maps. */
    static FileBytes file(byte[] bytes) {
        return new FileBytes() {
            @Override
            public long size() {
                return bytes.length;
            }

            @Override
            public int read(long position, byte[] dst, int offset, int length) {
                if (position >= bytes.length) {
                    return -1;
                }
                int n = (int) Math.min(length, bytes.length - position);
                System.arraycopy(bytes, (int) position, dst, offset, n);
                return n;
            }

            @Override
            public void close() {}
        };
    }
}
