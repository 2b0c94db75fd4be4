package org.sievecrawler.changes;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.EnumMap;
import java.util.Map;
import java.util.OptionalLong;
import org.sievecrawler.progress.SummarySection;

/**
 * How many URLs of a recrawl had each {@link Change}, as summary.json's {@code changes} and the final log line say.
 *
 * @param since when the earlier crawl started (its summary.json's {@code startedAt}), or null when unknown
 * @param byChange URLs by change (every change present, 0 for none)
 * @param unlinked URLs of both crawls that no page of the new crawl links to ({@link ChangeSet}); empty when not
 *     measured (a crawl without {@code output.links})
 * @param skipped lines of pages.jsonl or history.tsv that were no record, left out
 */
public record ChangeCounts(String since, Map<Change, Long> byChange, OptionalLong unlinked, long skipped)
        implements SummarySection {
    public ChangeCounts {
        EnumMap<Change, Long> all = new EnumMap<>(Change.class);
        for (Change change : Change.values()) {
            all.put(change, byChange.getOrDefault(change, 0L));
        }
        byChange = java.util.Collections.unmodifiableMap(all);
    }

    /** URLs with {@code change}. */
    public long count(Change change) {
        return byChange.get(change);
    }

    /**
     * Writes the field {@code changes}: {@code {"since": ..., "new": n, "changed": n, ..., "notVisited": n,
     * "unlinked": n or null}}.
     */
    @Override
    public void writeField(JsonGenerator json) throws IOException {
        json.writeObjectFieldStart("changes");
        if (since == null) {
            json.writeNullField("since");
        } else {
            json.writeStringField("since", since);
        }
        for (Map.Entry<Change, Long> e : byChange.entrySet()) {
            json.writeNumberField(e.getKey().key(), e.getValue());
        }
        if (unlinked.isPresent()) {
            json.writeNumberField("unlinked", unlinked.getAsLong());
        } else {
            json.writeNullField("unlinked");
        }
        json.writeEndObject();
    }

    /** A recrawl is run to see what changed: its changes lead the final line. */
    @Override
    public Place place() {
        return Place.LEADS;
    }

    /**
     * The words of the final log line: the counts that are not 0, in {@link Change}'s order, then the unlinked
     * ones, e.g. {@code changes: 3 new, 12 changed, 40 unchanged, 2 gone, 1 unlinked}; {@code changes: none} when
     * neither crawl recorded a URL.
     */
    @Override
    public String words() {
        StringBuilder words = new StringBuilder("changes:");
        for (Map.Entry<Change, Long> e : byChange.entrySet()) {
            if (e.getValue() > 0) {
                words.append(words.length() > 8 ? ", " : " ").append(e.getValue()).append(' ')
                        .append(e.getKey().label());
            }
        }
        if (unlinked.isPresent() && unlinked.getAsLong() > 0) {
            words.append(words.length() > 8 ? ", " : " ").append(unlinked.getAsLong()).append(" unlinked");
        }
        return words.length() > 8 ? words.toString() : "changes: none";
    }
}
