package dev.remora.app.cli;

import com.github.luben.zstd.Zstd;
import dev.remora.ports.ZstdDecoder;

/**
 * zstd-jni's decoder, for ELF sections that toolchains compress with zstd
 * ({@code objcopy --compress-debug-sections=zstd}, {@code gcc -gz=zstd}). Where its native library does
 * not load, every such section is refused with that reason; nothing else depends on it.
 */
final class ZstdJniDecoder implements ZstdDecoder {

    static final ZstdDecoder INSTANCE = new ZstdJniDecoder();

    private ZstdJniDecoder() {}

    @Override
    public byte[] decompress(byte[] data, int offset, int length, int size) throws Refused {
        byte[] out = new byte[size];
        long n;
        try {
            n = Zstd.decompressByteArray(out, 0, size, data, offset, length);
            if (Zstd.isError(n)) {
                throw new Refused(Zstd.getErrorName(n));
            }
        } catch (LinkageError e) {
            throw new Refused("zstd's native library does not load: "
                    + String.valueOf(e.getMessage()).lines().findFirst().orElse(e.getClass().getName()));
        } catch (RuntimeException e) {
            throw new Refused(String.valueOf(e.getMessage()));
        }
        if (n != size) {
            throw new Refused("decompresses to %d bytes, not the %d its header claims".formatted(n, size));
        }
        return out;
    }
}
