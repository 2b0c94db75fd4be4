package org.sievecrawler.report;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.sievecrawler.learn.Rule;
import org.sievecrawler.learn.RulesFile;

/**
 * The rules a crawl learned, as a report embeds them in the field {@code rules} (null for a crawl that has neither a
 * rules.jsonl nor a record refused by a rule): one row per rule, from rules.jsonl (what it is, when it was learned,
 * whether and for which URL it was undone) and the trap records of pages.jsonl that name it (error
 * {@code learned rule: <rule>}, and {@code ; followed as <url>} after it for a rewrite: {@link Rule#namedBy}, counted
 * by {@link PageTally}): the URLs it kept from being fetched. A rule named by
 * records but missing from rules.jsonl (the file deleted, or past its bound) still has its row, with its text only.
 * Rows are cut to {@link AuditExcerpt#MAX_ROWS}, their whole count in {@code total}. Lines of rules.jsonl that are no
 * rule are counted ({@code unreadableLines}). What each rule did in the last run (refused, rewritten, sampled) is
 * summary.json's {@code learned.list}, which the page's script joins by the rule's text.
 *
 * <p>Stateless.
 */
final class RulesExcerpt {
    /** Longest rule text kept from pages.jsonl: a rule's text is under 1,000 characters (a template, a host). */
    static final int MAX_RULE_CHARS = 2_000;

    private RulesExcerpt() {
    }

    /** {@code text} cut to {@link #MAX_RULE_CHARS}. */
    static String cut(String text) {
        return text.length() <= MAX_RULE_CHARS ? text : text.substring(0, MAX_RULE_CHARS);
    }

    /** A rule's row: its last line of rules.jsonl (learned, or undone after), and its trap records. */
    private static final class Row {
        RulesFile.Entry learned;
        RulesFile.Entry undone;
        long traps;
    }

    /**
     * Writes the field {@code rules} from {@code file}, a crawl's rules.jsonl, and {@code tally}'s trap records by
     * rule.
     *
     * @throws IOException naming rules.jsonl when it cannot be read (not a regular file, larger than
     *     {@link RulesFile#BOUND}), and the way out
     */
    static void write(Path file, PageTally tally, JsonGenerator json) throws IOException {
        if (!Files.exists(file) && tally.ruleTraps.isEmpty() && tally.otherRuleTraps == 0) {
            json.writeNullField("rules");
            return;
        }
        RulesFile.Read read;
        try {
            read = RulesFile.read(file);
        } catch (IOException e) {
            throw new IOException(e.getMessage() + "; move it away and run the report again to draw the crawl without"
                    + " its rules", e);
        }
        Map<String, Row> rows = new LinkedHashMap<>();
        for (RulesFile.Entry entry : read.entries()) {
            Row row = rows.computeIfAbsent(cut(entry.rule().describe()), text -> new Row());
            if (entry.undone()) {
                row.undone = entry;
            } else if (row.learned == null) {
                row.learned = entry;
            }
        }
        tally.ruleTraps.forEach((text, count) -> rows.computeIfAbsent(text, t -> new Row()).traps += count);
        json.writeObjectFieldStart("rules");
        json.writeNumberField("unreadableLines", read.skipped());
        json.writeNumberField("total", rows.size());
        json.writeNumberField("otherTraps", tally.otherRuleTraps);
        json.writeArrayFieldStart("list");
        int listed = 0;
        for (Map.Entry<String, Row> e : rows.entrySet()) {
            if (listed++ == AuditExcerpt.MAX_ROWS) {
                break;
            }
            Row row = e.getValue();
            RulesFile.Entry known = row.learned != null ? row.learned : row.undone;
            json.writeStartObject();
            json.writeStringField("rule", e.getKey());
            if (known != null) {
                Rule rule = known.rule();
                json.writeStringField("kind", rule.kind().label());
                json.writeStringField("host", rule.host());
                json.writeStringField("template", rule.template());
                json.writeStringField("name", rule.name());
            }
            writeNullable(json, "learned", row.learned == null ? null : row.learned.time().toString());
            writeNullable(json, "undone", row.undone == null ? null : row.undone.time().toString());
            writeNullable(json, "undoneUrl", row.undone == null ? null : row.undone.url());
            writeNullable(json, "undoneWhy", row.undone == null ? null : row.undone.why());
            json.writeNumberField("traps", row.traps);
            json.writeEndObject();
        }
        json.writeEndArray();
        json.writeEndObject();
    }

    private static void writeNullable(JsonGenerator json, String name, String value) throws IOException {
        if (value == null) {
            json.writeNullField(name);
        } else {
            json.writeStringField(name, value);
        }
    }
}
