package dev.remora.app.output.json;

import java.math.BigDecimal;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A value {@link JsonReader} read. The accessors throw {@link JsonException} when the value is not
 * what they ask for, so a caller states the shape it expects in one expression and handles one
 * exception for text that is not JSON and JSON that is not that shape alike.
 */
public sealed interface JsonValue {

    /** What this value is, for messages: "object", "string", ... */
    String kind();

    /** The member {@code name} of an object. */
    default JsonValue get(String name) {
        throw expected("an object");
    }

    /** A number that is a whole {@code long}. */
    default long asLong() {
        throw expected("a whole number");
    }

    default double asDouble() {
        throw expected("a number");
    }

    default boolean asBoolean() {
        throw expected("true or false");
    }

    default String asString() {
        throw expected("a string");
    }

    private JsonException expected(String what) {
        return new JsonException("expected " + what + ", found " + kind());
    }

    /** Members in the order read. */
    record JsonObject(Map<String, JsonValue> members) implements JsonValue {
        public JsonObject {
            members = Collections.unmodifiableMap(new LinkedHashMap<>(members));
        }

        @Override
        public String kind() {
            return "object";
        }

        @Override
        public JsonValue get(String name) {
            JsonValue value = members.get(name);
            if (value == null) {
                throw new JsonException("no member \"" + name + "\"");
            }
            return value;
        }
    }

    record JsonArray(List<JsonValue> elements) implements JsonValue {
        public JsonArray {
            elements = List.copyOf(elements);
        }

        @Override
        public String kind() {
            return "array";
        }
    }

    record JsonString(String value) implements JsonValue {
        @Override
        public String kind() {
            return "string";
        }

        @Override
        public String asString() {
            return value;
        }
    }

    /** A number exactly as written: whether it fits a long or a double is the caller's question. */
    record JsonNumber(BigDecimal value) implements JsonValue {
        @Override
        public String kind() {
            return "number " + value;
        }

        @Override
        public long asLong() {
            try {
                return value.longValueExact();
            } catch (ArithmeticException e) {
                throw new JsonException("expected a whole number, found " + value);
            }
        }

        @Override
        public double asDouble() {
            return value.doubleValue();
        }
    }

    record JsonBoolean(boolean value) implements JsonValue {
        @Override
        public String kind() {
            return Boolean.toString(value);
        }

        @Override
        public boolean asBoolean() {
            return value;
        }
    }

    record JsonNull() implements JsonValue {
        @Override
        public String kind() {
            return "null";
        }
    }
}
