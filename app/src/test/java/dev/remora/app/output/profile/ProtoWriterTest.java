package dev.remora.app.output.profile;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.HexFormat;

/** Checks the encoding against the worked examples of the protobuf encoding guide. */
class ProtoWriterTest {

    @Test
    void varintField() {
        assertThat(hex(new ProtoWriter().integer(1, 150))).isEqualTo("089601");
    }

    @Test
    void zeroIsTheDefaultAndLeftOut() {
        assertThat(new ProtoWriter().integer(1, 0).bool(2, false).size()).isZero();
        assertThat(hex(new ProtoWriter().bool(2, true))).isEqualTo("1001");
    }

    @Test
    void negativeNumbersTakeTenBytes() {
        assertThat(hex(new ProtoWriter().integer(1, -2))).isEqualTo("08feffffffffffffffff01");
    }

    @Test
    void fixed64FieldIsEightBytesLowFirst() {
        assertThat(hex(new ProtoWriter().fixed64(3, 0x0102030405060708L))).isEqualTo("190807060504030201");
        assertThat(new ProtoWriter().fixed64(3, 0).size()).isZero();
    }

    @Test
    void bytesField() {
        assertThat(hex(new ProtoWriter().bytes(7, new byte[] {1, (byte) 0xff}))).isEqualTo("3a0201ff");
    }

    @Test
    void stringField() {
        assertThat(hex(new ProtoWriter().string(2, "testing"))).isEqualTo("120774657374696e67");
        assertThat(hex(new ProtoWriter().string(6, ""))).isEqualTo("3200");
        assertThat(hex(new ProtoWriter().string(1, "é"))).isEqualTo("0a02c3a9");
    }

    @Test
    void nestedMessage() {
        ProtoWriter inner = new ProtoWriter().integer(1, 150);

        assertThat(hex(new ProtoWriter().message(3, inner))).isEqualTo("1a03089601");
    }

    @Test
    void packedRepeatedField() {
        assertThat(hex(new ProtoWriter().packed(4, 3, 270, 86942))).isEqualTo("2206038e029ea705");
        assertThat(new ProtoWriter().packed(4).size()).isZero();
    }

    @Test
    void drainingWritesTheFieldsAndStartsOver() throws IOException {
        ProtoWriter writer = new ProtoWriter().integer(1, 150);
        ByteArrayOutputStream out = new ByteArrayOutputStream();

        writer.drainTo(out);
        writer.string(2, "testing").drainTo(out);

        assertThat(HexFormat.of().formatHex(out.toByteArray())).isEqualTo("089601" + "120774657374696e67");
    }

    @Test
    void growsPastItsFirstBuffer() {
        ProtoWriter writer = new ProtoWriter();
        for (int i = 0; i < 1000; i++) {
            writer.integer(1, 150);
        }

        assertThat(writer.size()).isEqualTo(3000);
        assertThat(hex(writer)).isEqualTo("089601".repeat(1000));
    }

    private static String hex(ProtoWriter writer) {
        return HexFormat.of().formatHex(writer.toByteArray());
    }
}
