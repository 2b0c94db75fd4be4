package org.sievecrawler.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sievecrawler.escape.Json;

/**
 * The part of audit.json a report embeds: every section, its lists cut to {@link #MAX_ROWS} rows and each row's
 * own lists (the pages linking to a broken link, the URLs of a duplicate group, a redirect's chain) to
 * {@link #MAX_NESTED} items, with the whole counts beside them ({@code "linkedFromTotal": 4812} after
 * {@code "linkedFrom"}), so a report of a crawl with a million findings stays a page a browser opens. audit.json keeps
 * them all. Read as a stream: memory holds what is written, not the file.
 *
 * <p>Stateless.
 */
final class AuditExcerpt {
    /** Rows of a section's list the report's tables page through. */
    static final int MAX_ROWS = 5_000;
    /** Items of a row's own list shown. */
    static final int MAX_NESTED = 20;
    /** Suffix of the field that gives a cut list's whole count. */
    static final String TOTAL = "Total";

    private AuditExcerpt() {
    }

    /**
     * Writes {@code file}'s sections, cut, as the value of the field {@code audit} (null when the file is missing),
     * and the number of rows of each section's lists as {@code auditTotals} ({@code {"brokenLinks": 78, "titles":
     * {"missing": 2, "duplicates": 5}}}).
     *
     * @throws IOException naming the file when it is not a JSON object
     */
    static void write(Path file, JsonGenerator json) throws IOException {
        if (!Files.isRegularFile(file)) {
            json.writeNullField("audit");
            json.writeNullField("auditTotals");
            return;
        }
        Map<String, Object> totals = new LinkedHashMap<>();
        json.writeObjectFieldStart("audit");
        try (InputStream in = Files.newInputStream(file); JsonParser audit = Json.parser(in)) {
            if (audit.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException(file + " is not a JSON object; run `crawler report` again to write it anew");
            }
            while (audit.nextToken() == JsonToken.FIELD_NAME) {
                String section = audit.currentName();
                json.writeFieldName(section);
                JsonToken value = audit.nextToken();
                if (value == JsonToken.START_ARRAY) {
                    totals.put(section, copyList(audit, json, MAX_ROWS, 1));
                } else if (value == JsonToken.START_OBJECT) { // a section of named lists, e.g. titles
                    Map<String, Long> lists = new LinkedHashMap<>();
                    json.writeStartObject();
                    while (audit.nextToken() == JsonToken.FIELD_NAME) {
                        String name = audit.currentName();
                        json.writeFieldName(name);
                        if (audit.nextToken() == JsonToken.START_ARRAY) {
                            lists.put(name, copyList(audit, json, MAX_ROWS, 1));
                        } else {
                            json.copyCurrentStructure(audit);
                        }
                    }
                    json.writeEndObject();
                    if (!lists.isEmpty()) {
                        totals.put(section, lists);
                    }
                } else {
                    json.copyCurrentStructure(audit);
                }
            }
        } catch (JsonProcessingException e) {
            throw new IOException(file + " is not JSON (" + e.getOriginalMessage() + "); run `crawler report` again"
                    + " to write it anew", e);
        }
        json.writeEndObject();
        json.writeObjectFieldStart("auditTotals");
        for (Map.Entry<String, Object> total : totals.entrySet()) {
            if (total.getValue() instanceof Map<?, ?> lists) {
                json.writeObjectFieldStart(total.getKey());
                for (Map.Entry<?, ?> list : lists.entrySet()) {
                    json.writeNumberField((String) list.getKey(), (Long) list.getValue());
                }
                json.writeEndObject();
            } else {
                json.writeNumberField(total.getKey(), (Long) total.getValue());
            }
        }
        json.writeEndObject();
    }

    /**
     * Copies the list the parser is at the start of, its first {@code max} items (each with its own lists cut to
     * {@link #MAX_NESTED}), skips the rest, and returns how many items it has.
     */
    private static long copyList(JsonParser in, JsonGenerator out, int max, int depth) throws IOException {
        long items = 0;
        out.writeStartArray();
        for (JsonToken token = in.nextToken(); token != JsonToken.END_ARRAY; token = in.nextToken()) {
            if (items++ >= max) {
                in.skipChildren();
            } else if (token == JsonToken.START_OBJECT && depth == 1) {
                copyRow(in, out);
            } else {
                out.copyCurrentStructure(in);
            }
        }
        out.writeEndArray();
        return items;
    }

    /** Copies the object the parser is at the start of, each list of it cut, with its whole count beside. */
    private static void copyRow(JsonParser in, JsonGenerator out) throws IOException {
        out.writeStartObject();
        while (in.nextToken() == JsonToken.FIELD_NAME) {
            String name = in.currentName();
            out.writeFieldName(name);
            if (in.nextToken() == JsonToken.START_ARRAY) {
                long total = copyList(in, out, MAX_NESTED, 2);
                if (total > MAX_NESTED) {
                    out.writeNumberField(name + TOTAL, total);
                }
            } else {
                out.copyCurrentStructure(in);
            }
        }
        out.writeEndObject();
    }
}
