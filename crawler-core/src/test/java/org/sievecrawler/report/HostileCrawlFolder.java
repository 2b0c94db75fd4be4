package org.sievecrawler.report;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import org.sievecrawler.audit.Audit;
import org.sievecrawler.changes.Change;
import org.sievecrawler.changes.ChangeCounts;
import org.sievecrawler.changes.ChangeSet;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.escape.Json;
import org.sievecrawler.learn.LearnedRules;
import org.sievecrawler.learn.Learner;
import org.sievecrawler.learn.Rule;
import org.sievecrawler.learn.RulesFile;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.progress.ProgressLine;
import org.sievecrawler.progress.ProgressLog;
import org.sievecrawler.robots.RobotsCache;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

/**
 * A crawl's output folder written by the crawler's own writers, with one text in every place of pages.jsonl and
 * summary.json the report shows (titles, errors, the end reason, an unreachable host's reason, a link rejection's and
 * a fallback's reason) and enough of everything else for each of the report's 8 charts: outcomes, statuses, depths,
 * two hosts, errors, link rejections, and progress lines; and an audit.json with the text in each of its sections'
 * lists, as a URL, a title, an error and a link's text, a recrawl's changes.jsonl with the text in a URL and a
 * referrer (summary.json counting them), and a rules.jsonl with the text in a rule's template, parameter, undone URL
 * and why (a trap record naming the rule, summary.json's {@code learned} listing it), for each of the report's
 * {@link #TABLES} tables.
 */
final class HostileCrawlFolder {
    /** The charts the report of such a folder draws: all of them. */
    static final int CHARTS = 8;
    /**
     * The tables the report of such a folder draws: one per list of audit.json, new, gone and unlinked, and the rules
     * learned.
     */
    static final int TABLES = 11;

    private HostileCrawlFolder() {
    }

    /** Writes the folder's pages.jsonl, summary.json and progress.jsonl into {@code dir}, with {@code text}. */
    static void write(Path dir, String text) throws IOException {
        try (JsonlSink pages = JsonlSink.open(dir.resolve(CrawlFolder.PAGES))) {
            pages.accept(page("http://a.test/", 200, Outcome.FETCHED, 0, text, null));
            pages.accept(page("http://a.test/x", 0, Outcome.ERROR, 1, null, text));
            pages.accept(page("http://b.test/y", 404, Outcome.HTTP_ERROR, 2, text, text + " (2)"));
            pages.accept(page("http://a.test/cart?sid=2", 0, Outcome.TRAP, 1, null, "learned rule: "
                    + rule(text).describe()));
        }
        try (RulesFile rules = new RulesFile(dir.resolve(RulesFile.FILE), Clock.fixed(Instant.parse(
                "2026-01-01T00:00:01Z"), ZoneOffset.UTC))) {
            rules.learned(rule(text));
            rules.undone(rule(text), "http://a.test/undone?" + text, text);
        }
        Instant start = Instant.parse("2026-01-01T00:00:00Z");
        try (ProgressLog progress = ProgressLog.append(dir.resolve(CrawlFolder.PROGRESS),
                Clock.fixed(start.plusSeconds(1), ZoneOffset.UTC))) {
            progress.accept(new ProgressLine(1, 1, 1, 2, 3, 0.001, 0, 2, 1, 2, 1, 0, 0, 1000, 1));
            progress.accept(new ProgressLine(3, 2, 1.5, 0, 3, 0.002, 0, 2, 0, 2, 1, 0, 0, 3000, 2));
        }
        new CrawlSummary(start, Duration.ofSeconds(2), text, 3, 2, 2, 3000,
                Map.of("fetched", 1L, "error", 1L, "http-error", 1L), Map.of(200, 1L, 404, 1L), Map.of(text, 1L),
                1000, 3, 0.002, 0, new CrawlSummary.Parsing(1, 1, Map.of(text, 1L)), 1, 0, 0, 0,
                CrawlSummary.Dns.NONE, Map.of("http://c.test", text), 0, RobotsCache.Counts.NONE)
                .with(Optional.of(new ChangeCounts("2026-01-01T00:00:00Z", Map.of(Change.NEW, 1L, Change.GONE, 1L,
                        Change.UNCHANGED, 1L), OptionalLong.of(1), 0)))
                .with(Optional.of(new LearnedRules(List.of(new Learner.Tally(rule(text), true, 0, 4, 1)), 3, 1000)))
                .writeTo(dir.resolve(CrawlFolder.SUMMARY));
        try (OutputStream out = Files.newOutputStream(dir.resolve(ChangeSet.FILE))) {
            change(out, "http://a.test/", "unchanged", text, true);
            change(out, "http://a.test/new?" + text, "new", null, false);
            change(out, "http://b.test/y", "gone", text, false);
        }
        try (OutputStream out = Files.newOutputStream(dir.resolve(Audit.FILE)); JsonGenerator json = Json.writer(out)) {
            json.writeStartObject();
            json.writeArrayFieldStart("brokenLinks");
            for (String url : List.of("http://b.test/y", text)) {
                json.writeStartObject();
                json.writeStringField("url", url);
                json.writeNumberField("status", 404);
                json.writeStringField("error", text);
                json.writeArrayFieldStart("linkedFrom");
                json.writeStartObject();
                json.writeStringField("page", "http://a.test/");
                json.writeStringField("text", text);
                json.writeStringField("kind", text);
                json.writeEndObject();
                json.writeEndArray();
                json.writeEndObject();
            }
            json.writeEndArray();
            json.writeArrayFieldStart("redirects");
            json.writeStartObject();
            json.writeStringField("from", text);
            json.writeArrayFieldStart("chain");
            json.writeStartObject();
            json.writeStringField("url", text);
            json.writeNumberField("status", 301);
            json.writeEndObject();
            json.writeEndArray();
            json.writeStringField("to", text);
            json.writeNumberField("final", 200);
            json.writeEndObject();
            json.writeEndArray();
            json.writeArrayFieldStart("duplicates");
            json.writeStartObject();
            json.writeStringField("kind", text);
            json.writeArrayFieldStart("urls");
            json.writeString("http://a.test/");
            json.writeString(text);
            json.writeEndArray();
            json.writeEndObject();
            json.writeEndArray();
            json.writeObjectFieldStart("titles");
            json.writeArrayFieldStart("duplicates");
            json.writeStartObject();
            json.writeStringField("title", text);
            json.writeArrayFieldStart("urls");
            json.writeString(text);
            json.writeEndArray();
            json.writeEndObject();
            json.writeEndArray();
            json.writeArrayFieldStart("missing");
            json.writeString(text);
            json.writeEndArray();
            json.writeEndObject();
            json.writeArrayFieldStart("orphans");
            json.writeString(text);
            json.writeEndArray();
            json.writeArrayFieldStart("slowest");
            json.writeStartObject();
            json.writeStringField("url", text);
            json.writeNumberField("totalMs", 5);
            json.writeEndObject();
            json.writeEndArray();
            json.writeObjectFieldStart("stats");
            json.writeStringField(text, text);
            json.writeEndObject();
            json.writeEndObject();
        }
    }

    /** Writes a changes.jsonl line. */
    private static void change(OutputStream out, String url, String change, String referrer, boolean unlinked)
            throws IOException {
        try (JsonGenerator json = Json.writer(out)) {
            json.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
            json.writeStartObject();
            json.writeStringField("url", url);
            json.writeStringField("change", change);
            json.writeNumberField("status", 200);
            json.writeNumberField("previousStatus", 200);
            json.writeStringField("outcome", "fetched");
            json.writeStringField("previousReferrer", referrer);
            if (unlinked) {
                json.writeBooleanField("unlinked", true);
            }
            json.writeEndObject();
        }
        out.write('\n');
    }

    /** A rule learned on a.test with {@code text} in its template and as its parameter. */
    private static Rule rule(String text) {
        return new Rule(Rule.Kind.DROP_PARAM, "a.test", "/cart?" + text, text, -1, 12, 12);
    }

    private static PageRecord page(String url, int status, Outcome outcome, int depth, String title, String error) {
        return new PageRecord(url, status, outcome, "text/html", depth, 100, 5, 0, title, null, null, error, false);
    }
}
