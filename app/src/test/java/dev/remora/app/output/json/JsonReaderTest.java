package dev.remora.app.output.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.remora.app.output.json.JsonValue.JsonArray;
import dev.remora.app.output.json.JsonValue.JsonBoolean;
import dev.remora.app.output.json.JsonValue.JsonNull;
import dev.remora.app.output.json.JsonValue.JsonNumber;
import dev.remora.app.output.json.JsonValue.JsonObject;
import dev.remora.app.output.json.JsonValue.JsonString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

class JsonReaderTest {

    @Test
    void readsWhatPythonsJsonDumpsPrints() {
        JsonValue slice = JsonReader.parse("{\"calls\": 12, \"samples\": 11, \"failures\": 1, "
                + "\"work_seconds\": 1.5e-05, \"wall_seconds\": 0.5}");

        assertThat(slice.get("calls").asLong()).isEqualTo(12);
        assertThat(slice.get("failures").asLong()).isEqualTo(1);
        assertThat(slice.get("work_seconds").asDouble()).isEqualTo(1.5e-5);
        assertThat(slice.get("wall_seconds").asDouble()).isEqualTo(0.5);
        assertThat(JsonReader.parse("{\"ready\": true}").get("ready").asBoolean()).isTrue();
    }

    @Test
    void readsEveryKindOfValueNestedAndInOrder() {
        JsonValue value = JsonReader.parse(" \t\r\n{ \"b\" : [ 1 , -0 , 2.50 , 3E+2 , \"s\" , true , false , null , [ ] , { } ] ,"
                + " \"a\" : { \"x\" : { } } } \n");

        assertThat(value).isEqualTo(new JsonObject(Map.of(
                "b", new JsonArray(List.of(number("1"), number("-0"), number("2.50"), number("3E+2"), new JsonString("s"),
                        new JsonBoolean(true), new JsonBoolean(false), new JsonNull(), new JsonArray(List.of()),
                        new JsonObject(Map.of()))),
                "a", new JsonObject(Map.of("x", new JsonObject(Map.of()))))));
        assertThat(((JsonObject) value).members().keySet()).containsExactly("b", "a");
        assertThat(JsonReader.parse("-12").asLong()).isEqualTo(-12);
        assertThat(JsonReader.parse("300E-2").asLong()).as("a whole number, however written").isEqualTo(3);
        assertThat(JsonReader.parse("\"s\"").asString()).isEqualTo("s");
    }

    @Test
    void decodesEveryEscape() {
        assertThat(JsonReader.parse("\"q\\\" b\\\\ s\\/ \\b\\f\\n\\r\\t \\u0041\\u00e9 \\ud83d\\udc0d lone\\udc80 é 🐍\"").asString())
                .isEqualTo("q\" b\\ s/ \b\f\n\r\t Aé 🐍 lone\udc80 é 🐍");
    }

    @Test
    void readsBackWhatJsonWriterWrites() {
        String odd = "tab\tnl\nlone\ud800 </script> \u2028 \u0001 🐍";
        String written = JsonWriter.text(JsonEscaping.HTML_SCRIPT, json -> json.beginObject()
                .name(odd).beginArray().value(odd).value(-1).millis(1_500_000).nullValue().endArray().endObject());

        JsonValue read = JsonReader.parse(written);

        assertThat(read).isEqualTo(new JsonObject(Map.of(odd,
                new JsonArray(List.of(new JsonString(odd), number("-1"), number("1.5"), new JsonNull())))));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            ``                  | expected a value at offset 0, found the end of the text
            `  `                | expected a value at offset 2, found the end of the text
            {                   | expected a member name at offset 1, found the end of the text
            {"a" 1}             | expected ':' at offset 5, found '1'
            {"a":1,}            | expected a member name at offset 7, found '}'
            {a:1}               | expected a member name at offset 1, found 'a'
            {"a":1 "b":2}       | expected '}' at offset 7, found '"'
            {"a":1,"a":2}       | member "a" given twice, again at offset 7
            [1,]                | expected a value at offset 3, found ']'
            [1 2]               | expected ']' at offset 3, found '2'
            [1                  | expected ']' at offset 2, found the end of the text
            {"a":1}x            | expected the end at offset 7, found 'x'
            01                  | expected the end at offset 1, found '1'
            1.                  | expected a digit after the decimal point at offset 2, found the end of the text
            .5                  | expected a value at offset 0, found '.'
            -                   | expected a digit after '-' at offset 1, found the end of the text
            +1                  | expected a value at offset 0, found '+'
            1e                  | expected a digit in the exponent at offset 2, found the end of the text
            1e99999999999       | number out of range at offset 0
            NaN                 | expected a value at offset 0, found 'N'
            tru                 | expected a value at offset 0, found 't'
            nulls               | expected the end at offset 4, found 's'
            'a'                 | expected a value at offset 0, found '''
            "abc                | expected a closing quote at offset 4, found the end of the text
            "a\\x"              | expected one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after a backslash at offset 3, found 'x'
            "\\u12g4"           | expected four hex digits after \\u at offset 5, found 'g'
            "\\u12"             | expected four hex digits after \\u at offset 5, found '"'
            """)
    void saysWhatIsWrongAndWhere(String text, String message) {
        assertThatThrownBy(() -> JsonReader.parse(text)).isInstanceOf(JsonException.class).hasMessage(message);
    }

    @Test
    void rejectsRawControlCharactersInStrings() {
        assertThatThrownBy(() -> JsonReader.parse("\"a\nb\""))
                .isInstanceOf(JsonException.class)
                .hasMessage("expected an escape for the control character at offset 2, found U+000A");
    }

    @Test
    void boundsTheNesting() {
        String deepest = "[".repeat(JsonReader.MAX_DEPTH) + "1" + "]".repeat(JsonReader.MAX_DEPTH);
        assertThat(JsonReader.parse(deepest)).isInstanceOf(JsonArray.class);

        String deeper = "[" + deepest + "]";
        assertThatThrownBy(() -> JsonReader.parse(deeper))
                .isInstanceOf(JsonException.class)
                .hasMessage("nested deeper than " + JsonReader.MAX_DEPTH + " at offset " + JsonReader.MAX_DEPTH);
        String hostile = "{\"a\":".repeat(100_000);
        assertThatThrownBy(() -> JsonReader.parse(hostile)).isInstanceOf(JsonException.class);
    }

    @Test
    void accessorsSayWhatTheyFoundInstead() {
        JsonValue answer = JsonReader.parse("{\"calls\": 1.5, \"list\": [], \"big\": 1e30}");

        assertThatThrownBy(() -> answer.get("calls").asLong()).isInstanceOf(JsonException.class)
                .hasMessage("expected a whole number, found 1.5");
        assertThatThrownBy(() -> answer.get("big").asLong()).isInstanceOf(JsonException.class)
                .hasMessage("expected a whole number, found 1E+30");
        assertThatThrownBy(() -> answer.get("missing")).isInstanceOf(JsonException.class)
                .hasMessage("no member \"missing\"");
        assertThatThrownBy(() -> answer.get("list").get("x")).isInstanceOf(JsonException.class)
                .hasMessage("expected an object, found array");
        assertThatThrownBy(() -> answer.get("list").asBoolean()).isInstanceOf(JsonException.class)
                .hasMessage("expected true or false, found array");
        assertThatThrownBy(() -> answer.asString()).isInstanceOf(JsonException.class)
                .hasMessage("expected a string, found object");
        assertThatThrownBy(() -> JsonReader.parse("\"7\"").asDouble()).isInstanceOf(JsonException.class)
                .hasMessage("expected a number, found string");
    }

    private static JsonNumber number(String text) {
        return new JsonNumber(new BigDecimal(text));
    }
}
