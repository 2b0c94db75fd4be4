package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A JSON value read back from audit.json: an object, an array, a string, a number, a boolean or null (or missing:
 * what {@link #path} gives for a member that is not there), with the few reads the audit's readers need. Immutable;
 * the crawler's core has a streaming parser, not a tree model, and this is the smallest tree.
 */
public final class JsonValue implements Iterable<JsonValue> {
    /** What {@link #path} gives for a member that is not there. */
    static final JsonValue MISSING = new JsonValue(null, true);
    private final Object value;
    private final boolean missing;

    private JsonValue(Object value, boolean missing) {
        this.value = value;
        this.missing = missing;
    }

    /** Reads the value at {@code json}'s current token (its start, for an object or an array). */
    static JsonValue read(JsonParser json) throws IOException {
        JsonToken token = json.currentToken();
        if (token == JsonToken.START_OBJECT) {
            Map<String, JsonValue> members = new LinkedHashMap<>();
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                json.nextToken();
                members.put(name, read(json));
            }
            return new JsonValue(Collections.unmodifiableMap(members), false);
        }
        if (token == JsonToken.START_ARRAY) {
            List<JsonValue> items = new ArrayList<>();
            while (json.nextToken() != JsonToken.END_ARRAY) {
                items.add(read(json));
            }
            return new JsonValue(Collections.unmodifiableList(items), false);
        }
        return switch (token) {
            case VALUE_STRING -> new JsonValue(json.getText(), false);
            case VALUE_NUMBER_INT -> new JsonValue(json.getLongValue(), false);
            case VALUE_NUMBER_FLOAT -> new JsonValue(json.getDoubleValue(), false);
            case VALUE_TRUE -> new JsonValue(Boolean.TRUE, false);
            case VALUE_FALSE -> new JsonValue(Boolean.FALSE, false);
            default -> new JsonValue(null, false);
        };
    }

    /** The member {@code name} of an object; {@link #MISSING} when there is none or this is not an object. */
    public JsonValue path(String name) {
        return value instanceof Map<?, ?> members && members.get(name) instanceof JsonValue member ? member : MISSING;
    }

    public boolean isObject() {
        return value instanceof Map;
    }

    public boolean isTextual() {
        return value instanceof String;
    }

    public boolean isMissing() {
        return missing;
    }

    /** The items of an array (none for anything else). */
    @Override
    @SuppressWarnings("unchecked")
    public Iterator<JsonValue> iterator() {
        return value instanceof List<?> items ? ((List<JsonValue>) items).iterator()
                : Collections.<JsonValue>emptyIterator();
    }

    /** The members of an object, in order (none for anything else). */
    @SuppressWarnings("unchecked")
    public Map<String, JsonValue> members() {
        return value instanceof Map<?, ?> members ? (Map<String, JsonValue>) members : Map.of();
    }

    /** The items of an array, the members of an object, else 0. */
    public int size() {
        return value instanceof List<?> items ? items.size() : value instanceof Map<?, ?> members ? members.size() : 0;
    }

    /** A string as itself, a number or boolean as its text, else {@code otherwise}. */
    public String asText(String otherwise) {
        return value instanceof String || value instanceof Number || value instanceof Boolean ? String.valueOf(value)
                : otherwise;
    }

    public String asText() {
        return asText("");
    }

    public long asLong() {
        return value instanceof Number number ? number.longValue() : 0;
    }

    public int asInt() {
        return (int) asLong();
    }

    public boolean asBoolean() {
        return Boolean.TRUE.equals(value);
    }

    @Override
    public String toString() {
        return String.valueOf(value);
    }
}
