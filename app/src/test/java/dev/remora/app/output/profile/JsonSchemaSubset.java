package dev.remora.app.output.profile;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Validates JSON against a draft-07 JSON schema that uses only the keywords speedscope's schema
 * uses ($ref to local definitions, type, properties, required, items, anyOf, const, enum). A schema
 * with any other keyword is refused rather than half-checked, so a newer schema cannot make the
 * check pass by being misunderstood.
 */
public final class JsonSchemaSubset {

    private static final Set<String> ANNOTATIONS = Set.of("$schema", "title", "description", "definitions");
    private static final Set<String> ASSERTIONS =
            Set.of("$ref", "type", "properties", "required", "items", "anyOf", "const", "enum");

    private final JsonNode root;

    public JsonSchemaSubset(JsonNode root) {
        this.root = root;
    }

    /** Every violation, each as "JSON pointer: what is wrong"; empty when the document is valid. */
    public List<String> validate(JsonNode document) {
        List<String> errors = new ArrayList<>();
        check(root, document, "", errors);
        return errors;
    }

    private void check(JsonNode schema, JsonNode value, String at, List<String> errors) {
        for (Iterator<String> it = schema.fieldNames(); it.hasNext(); ) {
            String keyword = it.next();
            if (!ANNOTATIONS.contains(keyword) && !ASSERTIONS.contains(keyword)) {
                throw new IllegalStateException("schema keyword not supported by this check: " + keyword);
            }
        }
        if (schema.has("$ref")) {
            check(resolve(schema.get("$ref").asText()), value, at, errors);
        }
        if (schema.has("type") && !hasType(value, schema.get("type").asText())) {
            errors.add(at + ": expected " + schema.get("type").asText() + ", got " + value.getNodeType());
            return;
        }
        if (schema.has("const") && !schema.get("const").equals(value)) {
            errors.add(at + ": expected " + schema.get("const") + ", got " + value);
        }
        if (schema.has("enum") && !contains(schema.get("enum"), value)) {
            errors.add(at + ": " + value + " is not one of " + schema.get("enum"));
        }
        if (schema.has("required") && value.isObject()) {
            for (JsonNode name : schema.get("required")) {
                if (!value.has(name.asText())) {
                    errors.add(at + ": missing required member " + name.asText());
                }
            }
        }
        if (schema.has("properties") && value.isObject()) {
            for (Map.Entry<String, JsonNode> p : schema.get("properties").properties()) {
                if (value.has(p.getKey())) {
                    check(p.getValue(), value.get(p.getKey()), at + "/" + p.getKey(), errors);
                }
            }
        }
        if (schema.has("items") && value.isArray()) {
            for (int i = 0; i < value.size(); i++) {
                check(schema.get("items"), value.get(i), at + "/" + i, errors);
            }
        }
        if (schema.has("anyOf")) {
            List<String> branchErrors = new ArrayList<>();
            for (JsonNode branch : schema.get("anyOf")) {
                List<String> e = new ArrayList<>();
                check(branch, value, at, e);
                if (e.isEmpty()) {
                    return;
                }
                branchErrors.addAll(e);
            }
            errors.add(at + ": matches no alternative of anyOf " + branchErrors);
        }
    }

    private JsonNode resolve(String ref) {
        String prefix = "#/definitions/";
        if (!ref.startsWith(prefix) || !root.path("definitions").has(ref.substring(prefix.length()))) {
            throw new IllegalStateException("unresolvable $ref " + ref);
        }
        return root.get("definitions").get(ref.substring(prefix.length()));
    }

    private static boolean hasType(JsonNode value, String type) {
        return switch (type) {
            case "object" -> value.isObject();
            case "array" -> value.isArray();
            case "string" -> value.isTextual();
            case "number" -> value.isNumber();
            case "integer" -> value.isIntegralNumber();
            case "boolean" -> value.isBoolean();
            case "null" -> value.isNull();
            default -> throw new IllegalStateException("unknown type " + type);
        };
    }

    private static boolean contains(JsonNode array, JsonNode value) {
        for (JsonNode v : array) {
            if (v.equals(value)) {
                return true;
            }
        }
        return false;
    }
}
