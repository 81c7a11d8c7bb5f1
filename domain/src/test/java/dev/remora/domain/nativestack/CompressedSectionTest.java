package dev.remora.domain.nativestack;

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
 * were, and garbage in the compression header or data refused, never inflated past the cap.
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
        ElfImage image = ElfImage.read(new ArrayImage(elf));
        return image.contents(image.section(".debug_line").orElseThrow());
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
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", stored(2, TEXT.length, data), flag)))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("zstd");
        assertThatThrownBy(() -> contents(TinyElf.withSection(".debug_line", new byte[10], flag)))
                .isInstanceOf(NativeDataException.class).hasMessageContaining("no header");
    }
}
