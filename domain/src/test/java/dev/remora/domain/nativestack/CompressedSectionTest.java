package dev.remora.domain.nativestack;

import dev.remora.ports.ZstdDecoder;
import dev.remora.ports.elf.ElfSectionHeader;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.zip.Deflater;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Debug sections stored compressed, as distributions ship separate debug files: read as the bytes they
 * were, and garbage in the compression header or data refused, never inflated past the cap. zstd data
 * goes to the decoder the application gives, here scripted: what it is asked for and what it answers.
 */
class CompressedSectionTest {

    private static final byte[] TEXT = "a line table, or anything else, said again and again; ".repeat(200)
            .getBytes(StandardCharsets.US_ASCII);

    /** An {@code Elf64_Chdr} of {@code type} claiming {@code size} bytes, then {@code data}. */
    private static byte[] stored(int type, long size, byte[] data) {
        return ByteBuffer.allocate(24 + data.length).order(ByteOrder.LITTLE_ENDIAN)
                .putInt(type).putInt(0).putLong(size).putLong(1).put(data).array();
    }

    private static byte[] zlib(byte[] raw) {
        Deflater deflater = new Deflater();
        deflater.setInput(raw);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[4096];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        deflater.end();
        return out.toByteArray();
    }

    private static byte[] contents(byte[] elf) throws NativeDataException {
        return contents(elf, ZstdDecoder.NONE);
    }

    private static byte[] contents(byte[] elf, ZstdDecoder zstd) throws NativeDataException {
        ElfImage image = ElfImage.read(new ArrayImage(elf), zstd);
        return image.contents(image.section(".debug_line").orElseThrow());
    }

    /**
     * A stand-in for zstd: the "compressed" data is the text reversed, and only the whole of it is taken;
     * it checks it is asked for the data after the header and the size the header claims.
     */
    private static final ZstdDecoder REVERSED = (data, offset, length, size) -> {
        long claimed = ByteBuffer.wrap(data, 8, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
        if (offset != 24 || size != claimed) {
            throw new AssertionError("asked for %d bytes at %d, where the header claims %d".formatted(size, offset, claimed));
        }
        byte[] out = new byte[length];
        for (int i = 0; i < length; i++) {
            out[i] = data[offset + length - 1 - i];
        }
        return out;
    };

    private static byte[] reversed(byte[] raw) {
        byte[] out = new byte[raw.length];
        for (int i = 0; i < raw.length; i++) {
            out[i] = raw[raw.length - 1 - i];
        }
        return out;
    }

    @Test
    void aZstdCompressedSectionIsTheDecoderAnswerForTheDataAfterTheHeader() throws Exception {
        byte[] elf = TinyElf.withSection(".debug_line", stored(2, TEXT.length, reversed(TEXT)), ElfSectionHeader.SHF_COMPRESSED);

        assertThat(contents(elf, REVERSED)).isEqualTo(TEXT);
    }

    @Test
    void aZstdSectionIsRefusedWithTheDecodersReasonOrWhenItsSizeIsNotTheClaimedOne() {
        long flag = ElfSectionHeader.SHF_COMPRESSED;
        byte[] data = reversed(TEXT);
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(2, TEXT.length, data), flag)))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("zstd").hasMessageContaining("no zstd decoder");
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(2, TEXT.length + 1, data), flag), REVERSED))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("decompresses to other than");
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(2, 1L << 40, data), flag), REVERSED))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("over the cap");
        ZstdDecoder damaged = (d, offset, length, size) -> {
            throw new ZstdDecoder.Refused("Data corruption detected");
        };
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(2, TEXT.length, data), flag), damaged))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("Data corruption detected");
    }

    @Test
    void aZlibCompressedSectionReadsAsTheBytesItWas() throws Exception {
        byte[] elf = TinyElf.withSection(".debug_line", stored(1, TEXT.length, zlib(TEXT)), ElfSectionHeader.SHF_COMPRESSED);

        assertThat(contents(elf)).isEqualTo(TEXT);
    }

    @Test
    void theSameBytesWithoutTheFlagAreTakenAsStored() throws Exception {
        byte[] section = stored(1, TEXT.length, zlib(TEXT));

        assertThat(contents(TinyElf.withSection(".debug_line", section))).isEqualTo(section);
    }

    @Test
    void garbageInTheHeaderOrTheDataIsRefused() {
        byte[] data = zlib(TEXT);
        long flag = ElfSectionHeader.SHF_COMPRESSED;
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(1, 1L << 40, data), flag)))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("over the cap");
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(1, TEXT.length + 1, data), flag)))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("inflates to other than");
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(1, TEXT.length - 1, data), flag)))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("inflates to other than");
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line",
                stored(1, TEXT.length, Arrays.copyOf(data, data.length / 2)), flag)))
                .isInstanceOf(NativeDataException.class);
        byte[] scrambled = data.clone();
        Arrays.fill(scrambled, 2, 40, (byte) 0x5a);
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(1, TEXT.length, scrambled), flag)))
                .isInstanceOf(NativeDataException.class);
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(3, TEXT.length, data), flag)))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("unknown type 3");
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", new byte[10], flag)))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("no header");
    }
}
