package dev.remora.app.output.json;

import dev.remora.app.output.json.JsonValue.JsonArray;
import dev.remora.app.output.json.JsonValue.JsonBoolean;
import dev.remora.app.output.json.JsonValue.JsonNull;
import dev.remora.app.output.json.JsonValue.JsonNumber;
import dev.remora.app.output.json.JsonValue.JsonObject;
import dev.remora.app.output.json.JsonValue.JsonString;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one JSON text (RFC 8259) into {@link JsonValue}s. Meant for short texts such as a helper
 * process's answer lines; nesting is bounded so that no input can exhaust the stack.
 */
public final class JsonReader {

    static final int MAX_DEPTH = 64;

    private final String text;
    private int pos;

    private JsonReader(String text) {
        this.text = text;
    }

    /** The value {@code text} holds, with nothing but whitespace around it. */
    public static JsonValue parse(String text) {
        JsonReader reader = new JsonReader(text);
        JsonValue value = reader.value(0);
        reader.skipWhitespace();
        if (reader.pos < text.length()) {
            throw reader.error("the end");
        }
        return value;
    }

    private JsonValue value(int depth) {
        skipWhitespace();
        return switch (pos < text.length() ? text.charAt(pos) : 0) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> new JsonString(string());
            case 't' -> literal("true", new JsonBoolean(true));
            case 'f' -> literal("false", new JsonBoolean(false));
            case 'n' -> literal("null", new JsonNull());
            default -> number();
        };
    }

    private JsonObject object(int depth) {
        enter(depth);
        Map<String, JsonValue> members = new LinkedHashMap<>();
        if (!skipTo('}')) {
            do {
                skipWhitespace();
                int at = pos;
                if (!at('"')) {
                    throw error("a member name");
                }
                String name = string();
                skipWhitespace();
                expect(':');
                if (members.put(name, value(depth + 1)) != null) {
                    throw new JsonException("member \"" + name + "\" given twice, again at offset " + at);
                }
                skipWhitespace();
            } while (next(','));
            expect('}');
        }
        return new JsonObject(members);
    }

    private JsonArray array(int depth) {
        enter(depth);
        List<JsonValue> elements = new ArrayList<>();
        if (!skipTo(']')) {
            do {
                elements.add(value(depth + 1));
                skipWhitespace();
            } while (next(','));
            expect(']');
        }
        return new JsonArray(elements);
    }

    /** Steps into a container, unless it would nest deeper than allowed. */
    private void enter(int depth) {
        if (depth >= MAX_DEPTH) {
            throw new JsonException("nested deeper than " + MAX_DEPTH + " at offset " + pos);
        }
        pos++;
    }

    /** Whether the container ends right here (after whitespace); consumes the bracket if so. */
    private boolean skipTo(char closing) {
        skipWhitespace();
        return next(closing);
    }

    private String string() {
        pos++;
        StringBuilder b = new StringBuilder();
        while (true) {
            if (pos >= text.length()) {
                throw error("a closing quote");
            }
            char c = text.charAt(pos);
            if (c == '"') {
                pos++;
                return b.toString();
            }
            if (c < 0x20) {
                throw error("an escape for the control character");
            }
            pos++;
            b.append(c == '\\' ? escape() : c);
        }
    }

    private char escape() {
        if (pos >= text.length()) {
            throw error("an escape");
        }
        char c = text.charAt(pos++);
        return switch (c) {
            case '"', '\\', '/' -> c;
            case 'b' -> '\b';
            case 'f' -> '\f';
            case 'n' -> '\n';
            case 'r' -> '\r';
            case 't' -> '\t';
            // A surrogate pair comes as two escapes, each one char: appended in turn they pair up.
            case 'u' -> hex4();
            default -> {
                pos--;
                throw error("one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after a backslash");
            }
        };
    }

    private char hex4() {
        int value = 0;
        for (int i = 0; i < 4; i++) {
            int digit = pos < text.length() ? Character.digit(text.charAt(pos), 16) : -1;
            if (digit < 0) {
                throw error("four hex digits after \\u");
            }
            value = value << 4 | digit;
            pos++;
        }
        return (char) value;
    }

    private JsonNumber number() {
        int start = pos;
        boolean negative = next('-');
        if (!next('0')) {
            digits(negative ? "a digit after '-'" : "a value");
        }
        if (next('.')) {
            digits("a digit after the decimal point");
        }
        if (next('e') || next('E')) {
            if (!next('+')) {
                next('-');
            }
            digits("a digit in the exponent");
        }
        try {
            return new JsonNumber(new BigDecimal(text.substring(start, pos)));
        } catch (NumberFormatException e) {
            throw new JsonException("number out of range at offset " + start);
        }
    }

    /** One digit or more; {@code expected} says what is missing when there is none. */
    private void digits(String expected) {
        if (!isDigit()) {
            throw error(expected);
        }
        while (isDigit()) {
            pos++;
        }
    }

    private boolean isDigit() {
        return pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9';
    }

    private JsonValue literal(String word, JsonValue value) {
        if (!text.startsWith(word, pos)) {
            throw error("a value");
        }
        pos += word.length();
        return value;
    }

    private void expect(char c) {
        if (!next(c)) {
            throw error("'" + c + "'");
        }
    }

    private boolean at(char c) {
        return pos < text.length() && text.charAt(pos) == c;
    }

    /** Consumes {@code c} if it comes next. */
    private boolean next(char c) {
        if (at(c)) {
            pos++;
            return true;
        }
        return false;
    }

    private void skipWhitespace() {
        while (pos < text.length() && " \t\n\r".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
    }

    private JsonException error(String expected) {
        String found = pos >= text.length() ? "the end of the text"
                : text.charAt(pos) < 0x20 ? "U+%04X".formatted((int) text.charAt(pos)) : "'" + text.charAt(pos) + "'";
        return new JsonException("expected " + expected + " at offset " + pos + ", found " + found);
    }
}
