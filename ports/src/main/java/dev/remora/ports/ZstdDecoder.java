package dev.remora.ports;

/**
 * Decompression of zstd data, for ELF sections stored compressed with it ({@code SHF_COMPRESSED},
 * {@code ELFCOMPRESS_ZSTD}): zstd is not in the JDK and the domain has no native code, so the
 * application gives it one.
 */
public interface ZstdDecoder {

    /** Where none is given: every zstd section is refused, and says why. */
    ZstdDecoder NONE = (data, offset, length, size) -> {
        throw new Refused("no zstd decoder here");
    };

    /**
     * The {@code size} bytes that the zstd frames in {@code length} bytes at {@code offset} of
     * {@code data} decompress to.
     *
     * @throws Refused when they are not zstd, are damaged, or decompress to another size
     */
    byte[] decompress(byte[] data, int offset, int length, int size) throws Refused;

    /** Why data could not be decompressed. */
    final class Refused extends Exception {
        public Refused(String message) {
            super(message);
        }
    }
}
