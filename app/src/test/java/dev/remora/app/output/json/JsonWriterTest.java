package dev.remora.app.output.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

class JsonWriterTest {

    private static final ObjectMapper JACKSON = new ObjectMapper();

    @Test
    void placesCommasAndColonsBetweenWhatItIsGiven() {
        assertThat(JsonWriter.text(json -> json.beginObject()
                .name("a").beginArray().value(1).value("x").nullValue().value(true).value(false).endArray()
                .name("b").beginObject().endObject()
                .name("c").beginArray().beginArray().endArray().beginArray().value(2).endArray().endArray()
                .name("d").beginObject().name("e").beginObject().name("f").value(3).endObject().endObject()
                .endObject()))
                .isEqualTo("{\"a\":[1,\"x\",null,true,false],\"b\":{},\"c\":[[],[2]],\"d\":{\"e\":{\"f\":3}}}");
    }

    @Test
    void writesBareValuesAtTheTop() {
        assertThat(JsonWriter.text(json -> json.value("s"))).isEqualTo("\"s\"");
        assertThat(JsonWriter.text(json -> json.value(-7))).isEqualTo("-7");
    }

    @Test
    void placesRawDocumentsLikeValues() {
        assertThat(JsonWriter.text(json -> json.beginArray()
                .rawValue("{\"pid\":1}").rawValue("[]").value("x").rawValue("2")
                .endArray()))
                .isEqualTo("[{\"pid\":1},[],\"x\",2]");
    }

    @Test
    void millisecondsAreExactDecimals() {
        assertThat(millis(0)).isEqualTo("0");
        assertThat(millis(10_000_000)).isEqualTo("10");
        assertThat(millis(300_000)).isEqualTo("0.3");
        assertThat(millis(1_234_567_891)).isEqualTo("1234.567891");
        assertThat(millis(1)).isEqualTo("0.000001");
        assertThat(millis(-1_500_000)).isEqualTo("-1.5");
        assertThat(millis(-500_000)).isEqualTo("-0.5");
    }

    @Test
    void escapesWhatJsonCannotHoldAndKeepsTheRest() throws IOException {
        String s = "q\" b\\ n\n r\r t\t c\u0001\b\f\u001f é 🐍 lone\udc80 high\ud800 end\ud801";

        String written = JsonWriter.text(json -> json.value(s));

        assertThat(written).isEqualTo("\"q\\\" b\\\\ n\\n r\\r t\\t c\\u0001\\u0008\\u000c\\u001f é 🐍 lone\\udc80"
                + " high\\ud800 end\\ud801\"");
        assertThat(JACKSON.readValue(written, String.class)).isEqualTo(s);
    }

    @Test
    void namesAreEscapedLikeValues() throws IOException {
        String written = JsonWriter.text(json -> json.beginObject().name("a\"b\ud800").value(1).endObject());

        assertThat(written).isEqualTo("{\"a\\\"b\\ud800\":1}");
        assertThat(JACKSON.readTree(written).has("a\"b\ud800")).isTrue();
    }

    @Test
    void htmlScriptEscapingLeavesNothingThatEndsOrAltersTheElement() throws IOException {
        String s = "</script><!-- a & b > c \u2028\u2029 lone\ud800";

        String safe = JsonWriter.text(JsonEscaping.HTML_SCRIPT, json -> json.value(s));
        String plain = JsonWriter.text(json -> json.value(s));

        assertThat(safe).doesNotContain("<", ">", "&", "\u2028", "\u2029")
                .isEqualTo("\"\\u003c/script\\u003e\\u003c!-- a \\u0026 b \\u003e c \\u2028\\u2029 lone\\ud800\"");
        assertThat(JACKSON.readValue(safe, String.class)).isEqualTo(s);
        assertThat(plain).contains("</script><!-- a & b > c \u2028\u2029");
    }

    @Test
    void numbersJsonCannotHoldAreNull() {
        assertThat(JsonWriter.text(json -> json.beginArray()
                .value(Double.NaN).value(Double.POSITIVE_INFINITY).value(Double.NEGATIVE_INFINITY)
                .value(0.1).value(2.5e-7).rounded(Double.NaN, 2)
                .endArray()))
                .isEqualTo("[null,null,null,0.1,2.5E-7,null]");
    }

    @Test
    void roundedNumbersKeepEveryPlace() {
        assertThat(JsonWriter.text(json -> json.beginArray()
                .rounded(99, 2).rounded(1617.2839, 3).rounded(0.125, 2).rounded(618.25, 1).rounded(1.00475, 4)
                .endArray()))
                .isEqualTo("[99.00,1617.284,0.13,618.3,1.0048]");
    }

    @Test
    void absentAndUnsignedNumbers() {
        assertThat(JsonWriter.text(json -> json.beginArray()
                .optional(-1).optional(0).optional(7).unsignedValue(-1).unsignedValue(5).value((String) null)
                .endArray()))
                .isEqualTo("[null,0,7,18446744073709551615,5,null]");
    }

    @Test
    void streamsUtf8ToAnOutputStreamWhenFlushed() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonWriter json = JsonWriter.utf8(out);
        json.beginArray().value("é 🐍 \udc80").endArray();
        assertThat(out.size()).as("buffered until flushed").isZero();

        json.flush();

        assertThat(out.toByteArray()).isEqualTo("[\"é 🐍 \\udc80\"]".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void textPassesOnWhatTheBodyThrows() {
        assertThatThrownBy(() -> JsonWriter.text(json -> {
            throw new IOException("source gone");
        })).isInstanceOf(UncheckedIOException.class).hasMessageContaining("source gone");
    }

    private static String millis(long nanos) {
        return JsonWriter.text(json -> json.millis(nanos));
    }
}
