package dev.remora.domain.linetable;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class VarintTest {

    @Test
    void readsChunksLeastSignificantFirstAndReportsTheOffsetAfter() {
        byte[] bytes = {0x7F, 0x45, 0x01, 0x3F};

        long packed = Varint.read(bytes, 1, bytes.length);

        assertThat(Varint.value(packed)).isEqualTo(5 | (1 << 6));
        assertThat(Varint.next(packed)).isEqualTo(3);
    }

    @Test
    void signedReadingTakesTheSignFromTheLowBit() {
        assertThat(Varint.signed(0)).isZero();
        assertThat(Varint.signed(8)).isEqualTo(4);
        assertThat(Varint.signed(9)).isEqualTo(-4);
        assertThat(Varint.signed(-1)).isEqualTo(-Integer.MAX_VALUE);
    }

    @Test
    void aMalformedReadPoisonsTheReadsChainedAfterIt() {
        byte[] bytes = {0x40};

        long first = Varint.read(bytes, 0, bytes.length);

        assertThat(first).isEqualTo(Varint.MALFORMED);
        assertThat(Varint.read(bytes, Varint.next(first), bytes.length)).isEqualTo(Varint.MALFORMED);
    }
}
