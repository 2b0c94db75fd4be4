package org.sievecrawler.report;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.sievecrawler.audit.Audit;
import org.sievecrawler.changes.ChangeSet;
import org.sievecrawler.checkpoint.CrawlFolder;
import org.sievecrawler.escape.Json;
import org.sievecrawler.input.FileErrors;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.learn.RulesFile;
import org.sievecrawler.sink.JsonlSink;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The report of a crawl: report.html in its output folder, one self-contained page (no network, no CDN: the charting
 * library, Chart.js 4, MIT-licensed, is inlined from a copy vendored in this jar) with charts of pages/s over time,
 * outcomes, HTTP statuses, depths, top hosts and errors, and the Sieve's {@code seen~} and false-positive rate over
 * time against {@code sieve.expected-urls}.
 *
 * <p>Made from the folder's files: pages.jsonl (read whole, counted by {@link PageTally}), progress.jsonl (the
 * progress lines, {@link org.sievecrawler.progress.ProgressLog}), a recrawl's changes.jsonl (its "Changes since"
 * section first, {@link ChangesExcerpt}), rules.jsonl with the trap records of pages.jsonl that name a learned rule
 * (its "Rules learned" section, {@link RulesExcerpt}) and summary.json, the last four used when present (a
 * crawl still running, or killed, has no summary; a crawl of an older build no progress.jsonl). A line of either file
 * that is not a record (a partial last line of a crawl killed or still writing, a damaged line) is left out; those of
 * pages.jsonl are counted on the page and in a warning. Bytes of these files that are not UTF-8 are read as U+FFFD.
 *
 * <p>The data is embedded as JSON in a {@code <script type="application/json">} element, written with the HTML
 * spec's script-data escaping ({@link Json#scriptData}): it holds no {@code <}, {@code >}, {@code &}, U+2028 or
 * U+2029, so no text of the crawl (a URL, an error, a host's reason, the folder's name) can end the element, make the
 * HTML parser swallow the rest of the page, or run. summary.json and the progress lines are copied through the same
 * generator, not pasted. The page's script shows texts with {@code textContent} and Chart.js (canvas), never as HTML.
 *
 * <p>Stateless and thread-safe. Reading a folder another crawl writes to at the same time gives a report of a moment
 * of it. Out of scope: a report of a crawl run by several processes (its progress is per process).
 */
public final class CrawlReport {
    /** Hosts and errors shown, the most frequent first. */
    static final int TOP = 15;
    private static final Logger LOG = LoggerFactory.getLogger(CrawlReport.class);
    private static final String RESOURCES = "/org/sievecrawler/report/";

    private CrawlReport() {
    }

    /**
     * Writes {@code dir}/report.html (replacing one written before) and returns its path.
     *
     * @throws IOException naming the file that could not be read (e.g. dir/pages.jsonl missing or not records) or
     *     written
     */
    public static Path write(Path dir) throws IOException {
        String page = html(dir);
        Path report = dir.resolve(CrawlFolder.REPORT);
        Path temporary = dir.resolve(CrawlFolder.REPORT + ".tmp");
        try {
            Files.writeString(temporary, page, StandardCharsets.UTF_8);
            Files.move(temporary, report, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IOException("cannot write " + report + ": " + FileErrors.reason(report, e), e);
        }
        return report;
    }

    /** The page for the crawl in {@code dir}. */
    static String html(Path dir) throws IOException {
        Path pages = dir.resolve(CrawlFolder.PAGES);
        if (!Files.isRegularFile(pages)) {
            throw new IOException("no crawl report for " + dir + ": it has no " + CrawlFolder.PAGES
                    + " (is it a crawl's output folder?)");
        }
        PageTally tally = new PageTally();
        JsonlSink.Skipped skipped = JsonlSink.readSkipping(pages, tally::add);
        if (skipped.lines() > 0) {
            LOG.warn("{}: {} line(s) are not page records (the first at byte {}); the report leaves them out", pages,
                    skipped.lines(), skipped.firstAt());
        }
        String title = "Crawl report: " + dir.toAbsolutePath().normalize().getFileName();
        String data = data(title, tally, skipped.lines(), summary(dir.resolve(CrawlFolder.SUMMARY)),
                progress(dir.resolve(CrawlFolder.PROGRESS)), dir.resolve(ChangeSet.FILE), dir.resolve(Audit.FILE),
                dir.resolve(RulesFile.FILE));
        return fill(resource("report.html"), Map.of(
                "title", escapeHtml(Json.wellFormed(title)),
                "chartjs", resource("chart.umd.min.js"),
                "data", data,
                "script", resource("report.js")));
    }

    /** The data the page's script draws, as one JSON object. */
    private static String data(String title, PageTally tally, long unreadableLines, String summary,
            List<String> progress, Path changes, Path audit, Path rules) throws IOException {
        StringWriter text = new StringWriter();
        try (JsonGenerator json = Json.scriptData(text)) {
            json.writeStartObject();
            json.writeStringField("title", title);
            json.writeNumberField("records", tally.records);
            json.writeNumberField("unreadableLines", unreadableLines);
            json.writeObjectFieldStart("seeds");
            json.writeNumberField("count", tally.seeds);
            json.writeArrayFieldStart("first");
            for (String seed : tally.firstSeeds) {
                json.writeString(seed);
            }
            json.writeEndArray();
            json.writeEndObject();
            ChangesExcerpt.write(changes, json);
            AuditExcerpt.write(audit, json);
            RulesExcerpt.write(rules, tally, json);
            json.writeObjectFieldStart("outcomes");
            for (Map.Entry<String, Long> e : tally.outcomes.entrySet()) {
                json.writeNumberField(e.getKey(), e.getValue());
            }
            json.writeEndObject();
            json.writeObjectFieldStart("statuses");
            for (Map.Entry<Integer, Long> e : tally.statuses.entrySet()) {
                json.writeNumberField(String.valueOf(e.getKey()), e.getValue());
            }
            json.writeEndObject();
            json.writeArrayFieldStart("depths"); // [depth, records]
            for (Map.Entry<Integer, Long> e : tally.depths.entrySet()) {
                json.writeArray(new long[] {e.getKey(), e.getValue()}, 0, 2);
            }
            json.writeEndArray();
            pairs(json, "hosts", PageTally.top(tally.hosts, TOP));
            pairs(json, "errors", PageTally.top(tally.errors, TOP));
            json.writeFieldName("summary");
            if (summary == null) {
                json.writeNull();
            } else {
                copy(summary, json);
            }
            json.writeArrayFieldStart("progress");
            for (String line : progress) {
                copy(line, json);
            }
            json.writeEndArray();
            json.writeEndObject();
        } // an IOException is audit.json's, changes.jsonl's or rules.jsonl's: a StringWriter does not fail
        return text.toString();
    }

    private static void pairs(JsonGenerator json, String name, Iterable<Map.Entry<String, Long>> entries)
            throws IOException {
        json.writeArrayFieldStart(name); // [key, count]
        for (Map.Entry<String, Long> e : entries) {
            json.writeStartArray();
            json.writeString(e.getKey());
            json.writeNumber(e.getValue());
            json.writeEndArray();
        }
        json.writeEndArray();
    }

    /** summary.json, checked to be one JSON object; null when there is none. */
    private static String summary(Path file) throws IOException {
        if (!Files.isRegularFile(file)) {
            return null;
        }
        String text = utf8(file, InputFile.SUMMARY);
        if (!isJsonObject(text)) {
            throw new IOException(file + " is not a JSON object; delete it and run the report again to draw the"
                    + " crawl without its summary");
        }
        return text;
    }

    /** The lines of progress.jsonl that are JSON objects; a line that is not (a cut last one) is left out. */
    private static List<String> progress(Path file) throws IOException {
        List<String> objects = new ArrayList<>();
        if (Files.isRegularFile(file)) {
            for (String line : utf8(file, InputFile.PROGRESS).split("\n")) {
                if (isJsonObject(line)) {
                    objects.add(line);
                }
            }
        }
        return objects;
    }

    /** The text of {@code file}, at most {@code bound}'s bytes, its bytes that are not UTF-8 read as U+FFFD. */
    private static String utf8(Path file, InputFile.Bound bound) throws IOException {
        return new String(InputFile.read(file, bound), StandardCharsets.UTF_8);
    }

    private static boolean isJsonObject(String text) {
        try (JsonParser json = Json.parser(text)) {
            if (json.nextToken() != JsonToken.START_OBJECT) {
                return false;
            }
            json.skipChildren();
            return json.nextToken() == null;
        } catch (JsonProcessingException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a String does not fail
        }
    }

    /** Writes the JSON object {@code text} (checked by {@link #isJsonObject}) to {@code json}, value by value. */
    private static void copy(String text, JsonGenerator json) throws IOException {
        try (JsonParser in = Json.parser(text)) {
            in.nextToken();
            json.copyCurrentStructure(in);
        }
    }

    /** {@code template} with each {@code {{name}}} replaced by its value, in one pass (values are not searched). */
    static String fill(String template, Map<String, String> values) {
        StringBuilder page = new StringBuilder(template.length() + 256 * 1024);
        int from = 0;
        for (int open = template.indexOf("{{"); open >= 0; open = template.indexOf("{{", from)) {
            int close = template.indexOf("}}", open);
            String value = close < 0 ? null : values.get(template.substring(open + 2, close));
            if (value == null) {
                throw new IllegalStateException("report template: no value for " + template.substring(open,
                        close < 0 ? template.length() : close + 2));
            }
            page.append(template, from, open).append(value);
            from = close + 2;
        }
        return page.append(template, from, template.length()).toString();
    }

    private static String resource(String name) {
        try (InputStream in = CrawlReport.class.getResourceAsStream(RESOURCES + name)) {
            if (in == null) {
                throw new IllegalStateException("resource " + RESOURCES + name + " is missing from the jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String escapeHtml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
