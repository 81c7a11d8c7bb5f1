package dev.remora.app.output.profile.pstats;

import dev.remora.app.output.profile.Python;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

/** Every kind of value the marshal writer knows, as CPython 3.15 and the machine's python3 read it back. */
@Tag("targets")
class MarshalWriterTest {

    private static final String PRINT_REPR = "import marshal, sys; print(ascii(marshal.loads(open(sys.argv[1], 'rb').read())))";

    @Test
    void valuesReadBackExactly() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MarshalWriter m = new MarshalWriter(bytes);
        long[] integers = {0, 1, -1, 32767, 32768, 65535, 1 << 30, Integer.MAX_VALUE, Integer.MIN_VALUE,
                1L << 31, -(1L << 31) - 1, 1L << 40, -(1L << 45) + 7, Long.MAX_VALUE, Long.MIN_VALUE};
        m.beginTuple(7);
        m.beginTuple(integers.length);
        for (long i : integers) {
            m.integer(i);
        }
        m.beginTuple(4);
        m.floating(0.1);
        m.floating(-0.0);
        m.floating(1e300);
        m.floating(Double.MIN_VALUE);
        m.beginTuple(6);
        m.string("");
        m.string("plain");
        m.string("a".repeat(255));
        m.string("b".repeat(256));
        m.string("\u00e9 \u505c \uD801\uDC00");
        m.string("lone \uD800 surrogate");
        m.beginTuple(300);
        for (int i = 0; i < 300; i++) {
            m.integer(i);
        }
        m.beginDict();
        m.beginTuple(1);
        m.string("k");
        m.bool(true);
        m.string("f");
        m.bool(false);
        m.endDict();
        m.beginDict();
        m.endDict();
        m.beginTuple(0);

        StringBuilder expected = new StringBuilder("((");
        for (long i : integers) {
            expected.append(i).append(", ");
        }
        expected.setLength(expected.length() - 2);
        expected.append("), (0.1, -0.0, 1e+300, 5e-324), ('', 'plain', '").append("a".repeat(255)).append("', '")
                .append("b".repeat(256)).append("', '\\xe9 \\u505c \\U00010400', 'lone \\ud800 surrogate'), (");
        for (int i = 0; i < 300; i++) {
            expected.append(i).append(i < 299 ? ", " : "");
        }
        expected.append("), {('k',): True, 'f': False}, {}, ())\n");

        for (Python python : new Python[] {Python.cpython315(), Python.host()}) {
            try (python) {
                assertThat(python.run(PRINT_REPR, python.put("values.marshal", bytes.toByteArray())))
                        .isEqualTo(expected.toString());
            }
        }
    }

    @Test
    void writesCompactFormsAndNoReferenceFlags() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        MarshalWriter m = new MarshalWriter(bytes);
        m.beginTuple(3);
        m.string("ab");
        m.integer(70000);
        m.string("\u00e9");
        assertThat(bytes.toByteArray()).containsExactly(
                ')', 3, 'z', 2, 'a', 'b', 'i', 0x70, 0x11, 0x01, 0x00, 'u', 2, 0, 0, 0, (byte) 0xc3, (byte) 0xa9);
    }
}
