package dev.remora.app.output.profile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

class JsonStreamTest {

    @Test
    void placesCommasAndColonsBetweenWhatItIsGiven() throws IOException {
        assertThat(write(json -> json.beginObject()
                .name("a").beginArray().value(1).value("x").nullValue().value(true).endArray()
                .name("b").beginObject().endObject()
                .name("c").beginArray().beginArray().endArray().beginArray().value(2).endArray().endArray()
                .endObject()))
                .isEqualTo("{\"a\":[1,\"x\",null,true],\"b\":{},\"c\":[[],[2]]}");
    }

    @Test
    void millisecondsAreExactDecimals() {
        assertThat(JsonStream.decimal(0, 1_000_000)).isEqualTo("0");
        assertThat(JsonStream.decimal(10_000_000, 1_000_000)).isEqualTo("10");
        assertThat(JsonStream.decimal(300_000, 1_000_000)).isEqualTo("0.3");
        assertThat(JsonStream.decimal(1_234_567_891, 1_000_000)).isEqualTo("1234.567891");
        assertThat(JsonStream.decimal(1, 1_000_000)).isEqualTo("0.000001");
        assertThat(JsonStream.decimal(-1_500_000, 1_000_000)).isEqualTo("-1.5");
        assertThat(JsonStream.decimal(-500_000, 1_000_000)).isEqualTo("-0.5");
    }

    @Test
    void escapesWhatJsonCannotHoldAndKeepsTheRest() throws IOException {
        String s = "q\" b\\ n\n t\t c\u0001 é 🐍 lone\udc80 end";

        String written = write(json -> json.value(s));

        assertThat(written).isEqualTo("\"q\\\" b\\\\ n\\n t\\t c\\u0001 é 🐍 lone\\udc80 end\"");
        assertThat(new ObjectMapper().readValue(written, String.class)).isEqualTo(s);
    }

    @Test
    void absentNumbersAreNull() throws IOException {
        assertThat(write(json -> json.beginArray().optional(-1).optional(0).optional(7).endArray()))
                .isEqualTo("[null,0,7]");
    }

    private interface Body {
        void write(JsonStream json) throws IOException;
    }

    private static String write(Body body) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        JsonStream json = new JsonStream(out);
        body.write(json);
        json.flush();
        return out.toString(StandardCharsets.UTF_8);
    }
}
