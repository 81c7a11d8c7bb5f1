package dev.remora.domain.nativestack;

import dev.remora.domain.memory.Bytes;
import dev.remora.ports.ZstdDecoder;

import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * A section stored compressed ({@code SHF_COMPRESSED}): an {@code Elf64_Chdr} (type, reserved, size,
 * alignment) and the data. Distributions compress the debug sections of their separate debug files
 * with zlib, newer toolchains also with zstd (given by the application: the JDK has no zstd); the size
 * the header claims is checked against a cap before anything is inflated, and the data must inflate to
 * exactly that size.
 */
final class CompressedSection {

    private static final int HEADER = 24;
    private static final int ELFCOMPRESS_ZLIB = 1;
    private static final int ELFCOMPRESS_ZSTD = 2;

    private CompressedSection() {}

    static byte[] inflate(byte[] stored, int maxSize, ZstdDecoder zstd) throws NativeDataException {
        if (stored.length < HEADER) {
            throw new NativeDataException("compressed section of %d bytes has no header".formatted(stored.length));
        }
        int type = Bytes.getInt(stored, 0);
        long size = Bytes.getLong(stored, 8);
        if (type != ELFCOMPRESS_ZLIB && type != ELFCOMPRESS_ZSTD) {
            throw new NativeDataException("compressed section of unknown type %d".formatted(type));
        }
        if (size < 0 || size > maxSize) {
            throw new NativeDataException("compressed section claims 0x%x bytes, over the cap".formatted(size));
        }
        if (type == ELFCOMPRESS_ZSTD) {
            return unzstd(stored, (int) size, zstd);
        }
        byte[] out = new byte[(int) size];
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(stored, HEADER, stored.length - HEADER);
            int n = 0;
            while (n < out.length && !inflater.finished()) {
                int got = inflater.inflate(out, n, out.length - n);
                if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                n += got;
            }
            if (n != out.length || !inflater.finished()) {
                throw new NativeDataException("compressed section inflates to other than its 0x%x bytes".formatted(size));
            }
            return out;
        } catch (DataFormatException e) {
            throw new NativeDataException("compressed section: " + e.getMessage());
        } finally {
            inflater.end();
        }
    }

    private static byte[] unzstd(byte[] stored, int size, ZstdDecoder zstd) throws NativeDataException {
        byte[] out;
        try {
            out = zstd.decompress(stored, HEADER, stored.length - HEADER, size);
        } catch (ZstdDecoder.Refused e) {
            throw new NativeDataException("zstd-compressed section: " + e.getMessage());
        }
        if (out.length != size) {
            throw new NativeDataException("zstd-compressed section decompresses to other than its 0x%x bytes".formatted(size));
        }
        return out;
    }
}
