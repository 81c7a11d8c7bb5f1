package dev.remora.app.cli;

import com.github.luben.zstd.Zstd;
import dev.remora.ports.ZstdDecoder;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** zstd data read back as the bytes it was, within a larger array; damaged data or another size refused. */
class ZstdJniDecoderTest {

    private static final byte[] TEXT = "a section's bytes, said again and again; ".repeat(300).getBytes(StandardCharsets.US_ASCII);

    /** The compressed frame with 5 bytes of something else before it and 3 after. */
    private static byte[] framed() {
        byte[] frame = Zstd.compress(TEXT);
        byte[] around = new byte[frame.length + 8];
        System.arraycopy(frame, 0, around, 5, frame.length);
        return around;
    }

    @Test
    void aFrameWithinAnArrayDecompressesToItsBytes() throws Exception {
        byte[] around = framed();

        assertThat(ZstdJniDecoder.INSTANCE.decompress(around, 5, around.length - 8, TEXT.length)).isEqualTo(TEXT);
    }

    @Test
    void damagedDataAndAnotherSizeAreRefused() {
        byte[] around = framed();
        int length = around.length - 8;
        assertThatThrownBy(() -> ZstdJniDecoder.INSTANCE.decompress(around, 5, length, TEXT.length - 1))
                .isInstanceOf(ZstdDecoder.Refused.class);
        assertThatThrownBy(() -> ZstdJniDecoder.INSTANCE.decompress(around, 5, length, TEXT.length + 1))
                .isInstanceOf(ZstdDecoder.Refused.class).hasMessageContaining("not the");
        assertThatThrownBy(() -> ZstdJniDecoder.INSTANCE.decompress(around, 5, length / 2, TEXT.length))
                .isInstanceOf(ZstdDecoder.Refused.class);
        byte[] scrambled = around.clone();
        Arrays.fill(scrambled, 5, 13, (byte) 0x5a);
        assertThatThrownBy(() -> ZstdJniDecoder.INSTANCE.decompress(scrambled, 5, length, TEXT.length))
                .isInstanceOf(ZstdDecoder.Refused.class);
    }
}
