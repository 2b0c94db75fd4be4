package org.sievecrawler.audit;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.sievecrawler.escape.Json;
import org.sievecrawler.input.FileErrors;

/**
 * audit.json read back for people and CI jobs: each list it holds, with how many findings and the first few, and
 * its {@code stats}. Read as a stream, whatever the file's size: memory is the first findings of each list. Knows no
 * section's class, only the file (so a section another build wrote is read the same). Immutable.
 *
 * @param lists the lists, by name in the file's order: a top-level array as its member's name ({@code brokenLinks}),
 *     an array inside a top-level object as {@code member.field} ({@code titles.missing})
 * @param stats the {@code stats} member, empty when the file has none
 */
public record AuditFindings(Map<String, Findings> lists, Optional<JsonValue> stats) {
    public AuditFindings {
        lists = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(lists));
    }

    /**
     * One list of audit.json.
     *
     * @param name its name, e.g. {@code brokenLinks}
     * @param count how many findings it lists
     * @param first the first of them, at most as many as asked
     */
    public record Findings(String name, long count, List<JsonValue> first) {
        public Findings {
            first = List.copyOf(first);
        }
    }

    /**
     * Reads {@code file}, keeping the first {@code keep} findings of each list.
     *
     * @throws IOException naming the file when it cannot be read or is not audit.json's shape
     */
    public static AuditFindings read(Path file, int keep) throws IOException {
        Map<String, Findings> lists = new LinkedHashMap<>();
        JsonValue stats = null;
        try (InputStream in = Files.newInputStream(file); JsonParser json = Json.parser(in)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(file + ": not audit.json: it is not one JSON object");
            }
            while (json.nextToken() == JsonToken.FIELD_NAME) {
                String name = json.currentName();
                JsonToken value = json.nextToken();
                if (name.equals(Stats.NAME) && value == JsonToken.START_OBJECT) {
                    stats = JsonValue.read(json);
                } else if (value == JsonToken.START_ARRAY) {
                    lists.put(name, list(name, json, keep));
                } else if (value == JsonToken.START_OBJECT) {
                    while (json.nextToken() == JsonToken.FIELD_NAME) {
                        String field = name + "." + json.currentName();
                        if (json.nextToken() == JsonToken.START_ARRAY) {
                            lists.put(field, list(field, json, keep));
                        } else {
                            json.skipChildren();
                        }
                    }
                } else {
                    json.skipChildren();
                }
            }
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(file + ": not audit.json: " + e.getOriginalMessage(), e);
        } catch (IOException e) {
            if (e.getMessage() != null && e.getMessage().startsWith(file.toString())) {
                throw e;
            }
            throw new IOException("cannot read " + file + ": " + FileErrors.reason(file, e), e);
        }
        return new AuditFindings(lists, Optional.ofNullable(stats));
    }

    private static Findings list(String name, JsonParser json, int keep) throws IOException {
        long count = 0;
        List<JsonValue> first = new ArrayList<>();
        while (json.nextToken() != JsonToken.END_ARRAY) {
            if (count++ < keep) {
                first.add(JsonValue.read(json));
            } else {
                json.skipChildren();
            }
        }
        return new Findings(name, count, first);
    }
}
