package org.sievecrawler.report;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.sievecrawler.changes.Change;
import org.sievecrawler.changes.ChangeLine;
import org.sievecrawler.changes.ChangeSet;

/**
 * The part of a recrawl's changes.jsonl a report embeds, as the field {@code changes} (null for a crawl without the
 * file): the URLs by change counted ({@code counts}, with {@code unlinked}), and the lists a reader asks for first
 * (new, changed, gone, moved, unreachable, not-visited, unlinked), each cut to {@link AuditExcerpt#MAX_ROWS} rows
 * with its whole count in {@code totals}. Unchanged and not-modified URLs are counted, not listed. Read as a stream:
 * memory holds the rows kept. Lines that are no change line are counted ({@code unreadableLines}).
 *
 * <p>Stateless.
 */
final class ChangesExcerpt {
    /** The changes listed, in the order shown; the unlinked URLs after them. */
    static final List<Change> LISTED = List.of(Change.NEW, Change.CHANGED, Change.GONE, Change.MOVED,
            Change.UNREACHABLE, Change.NOT_VISITED);
    static final String UNLINKED = "unlinked";

    private ChangesExcerpt() {
    }

    /** Writes the field {@code changes} from {@code file}, a recrawl's changes.jsonl ({@link ChangeSet}). */
    static void write(Path file, JsonGenerator json) throws IOException {
        if (!Files.isRegularFile(file)) {
            json.writeNullField("changes");
            return;
        }
        Map<Change, Long> counts = new EnumMap<>(Change.class);
        Map<String, List<ChangeLine>> lists = new LinkedHashMap<>();
        Map<String, Long> totals = new LinkedHashMap<>();
        LISTED.forEach(change -> lists.put(change.key(), new ArrayList<>()));
        lists.put(UNLINKED, new ArrayList<>());
        lists.keySet().forEach(name -> totals.put(name, 0L));
        long unreadable = ChangeLine.read(file, line -> {
            counts.merge(line.change(), 1L, Long::sum);
            if (LISTED.contains(line.change())) {
                keep(lists, totals, line.change().key(), line);
            }
            if (line.unlinked()) {
                keep(lists, totals, UNLINKED, line);
            }
        });
        json.writeObjectFieldStart("changes");
        json.writeNumberField("unreadableLines", unreadable);
        json.writeObjectFieldStart("counts");
        for (Change change : Change.values()) {
            json.writeNumberField(change.key(), counts.getOrDefault(change, 0L));
        }
        json.writeNumberField(UNLINKED, totals.get(UNLINKED));
        json.writeEndObject();
        json.writeObjectFieldStart("lists");
        for (Map.Entry<String, List<ChangeLine>> list : lists.entrySet()) {
            json.writeArrayFieldStart(list.getKey());
            for (ChangeLine line : list.getValue()) {
                json.writeStartObject();
                json.writeStringField("url", line.url());
                if (list.getKey().equals(UNLINKED)) {
                    json.writeStringField("change", line.change().label());
                }
                writeStatus(json, "status", line.status());
                writeStatus(json, "previousStatus", line.previousStatus());
                json.writeStringField("outcome", line.outcome());
                json.writeStringField("previousReferrer", line.previousReferrer());
                json.writeEndObject();
            }
            json.writeEndArray();
        }
        json.writeEndObject();
        json.writeObjectFieldStart("totals");
        for (Map.Entry<String, Long> total : totals.entrySet()) {
            json.writeNumberField(total.getKey(), total.getValue());
        }
        json.writeEndObject();
        json.writeEndObject();
    }

    private static void keep(Map<String, List<ChangeLine>> lists, Map<String, Long> totals, String name,
            ChangeLine line) {
        if (totals.merge(name, 1L, Long::sum) <= AuditExcerpt.MAX_ROWS) {
            lists.get(name).add(line);
        }
    }

    private static void writeStatus(JsonGenerator json, String name, Integer status) throws IOException {
        if (status == null) {
            json.writeNullField(name);
        } else {
            json.writeNumberField(name, status);
        }
    }
}
