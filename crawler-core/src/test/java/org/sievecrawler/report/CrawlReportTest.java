package org.sievecrawler.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.sievecrawler.escape.Json;
import org.sievecrawler.fixtures.HostileText;
import org.sievecrawler.input.InputFile;
import org.sievecrawler.sink.JsonlSink;
import org.sievecrawler.sink.Outcome;
import org.sievecrawler.sink.PageRecord;

class CrawlReportTest {
    @TempDir
    Path dir;

    private static PageRecord page(String url, int status, Outcome outcome, int depth, String error) {
        return new PageRecord(url, status, outcome, "text/html", depth, 100, 5, 0, null, null, null, error, false);
    }

    private void pages(PageRecord... records) throws IOException {
        try (JsonlSink sink = JsonlSink.open(dir.resolve("pages.jsonl"))) {
            for (PageRecord r : records) {
                sink.accept(r);
            }
        }
    }

    /** The JSON the page's script draws, read back from the page. */
    private static JsonNode data(String html) throws IOException {
        String open = "<script id=\"report-data\" type=\"application/json\">";
        int start = html.indexOf(open) + open.length();
        return new ObjectMapper().readTree(html.substring(start, html.indexOf("</script>", start)));
    }

    @Test
    void thePageCountsPagesJsonlByOutcomeStatusDepthHostAndError() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null),
                page("http://a.test/x", 404, Outcome.HTTP_ERROR, 1, null),
                page("http://b.test:8080/y", 200, Outcome.FETCHED, 1, null),
                page("http://b.test:8080/z", 0, Outcome.ERROR, 2, "timeout"),
                page("http://a.test/w", 0, Outcome.ERROR, 2, "timeout"));

        JsonNode data = data(CrawlReport.html(dir));

        assertThat(data.get("records").asLong()).isEqualTo(5);
        assertThat(data.get("outcomes").get("fetched").asLong()).isEqualTo(2);
        assertThat(data.get("outcomes").get("error").asLong()).isEqualTo(2);
        assertThat(data.get("statuses").get("200").asLong()).isEqualTo(2);
        assertThat(data.get("statuses").get("404").asLong()).isEqualTo(1);
        assertThat(data.get("statuses").has("0")).isFalse();
        assertThat(data.get("depths").toString()).isEqualTo("[[0,1],[1,2],[2,2]]");
        assertThat(data.get("hosts").toString()).isEqualTo("[[\"http://a.test\",3],[\"http://b.test:8080\",2]]");
        assertThat(data.get("errors").toString()).isEqualTo("[[\"error: timeout\",2]]");
        assertThat(data.get("summary").isNull()).isTrue();
        assertThat(data.get("progress").size()).isZero();
    }

    @Test
    void theSeedsAreTheRecordsOfDepthZeroWithoutAReferrerTheFirstThreeNamed() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null), page("http://a.test/x", 200, Outcome.FETCHED, 1,
                null), page("http://b.test/", 200, Outcome.FETCHED, 0, null), page("http://c.test/", 0,
                Outcome.ERROR, 0, "refused"), page("http://d.test/", 200, Outcome.FETCHED, 0, null));

        JsonNode seeds = data(CrawlReport.html(dir)).get("seeds");

        assertThat(seeds.toString()).isEqualTo("{\"count\":4,\"first\":[\"http://a.test/\",\"http://b.test/\","
                + "\"http://c.test/\"]}");
    }

    @Test
    void auditJsonIsEmbeddedWithItsListsCutAndTheirWholeCountsBeside() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null));
        StringBuilder audit = new StringBuilder("{\"brokenLinks\":[");
        for (int i = 0; i < AuditExcerpt.MAX_ROWS + 7; i++) {
            audit.append(i == 0 ? "" : ",").append("{\"url\":\"http://a.test/").append(i)
                    .append("\",\"status\":404,\"linkedFrom\":[");
            for (int j = 0; j < (i == 0 ? AuditExcerpt.MAX_NESTED + 5 : 2); j++) {
                audit.append(j == 0 ? "" : ",").append("{\"page\":\"http://a.test/p").append(j).append("\"}");
            }
            audit.append("]}");
        }
        audit.append("],\"titles\":{\"missing\":[\"http://a.test/\"],\"duplicates\":[]},\"stats\":{\"n\":1}}");
        Files.writeString(dir.resolve("audit.json"), audit);

        JsonNode data = data(CrawlReport.html(dir));

        JsonNode broken = data.get("audit").get("brokenLinks");
        assertThat(broken.size()).isEqualTo(AuditExcerpt.MAX_ROWS);
        assertThat(broken.get(0).get("linkedFrom").size()).isEqualTo(AuditExcerpt.MAX_NESTED);
        assertThat(broken.get(0).get("linkedFromTotal").asLong()).isEqualTo(AuditExcerpt.MAX_NESTED + 5);
        assertThat(broken.get(1).get("linkedFrom").size()).isEqualTo(2);
        assertThat(broken.get(1).has("linkedFromTotal")).isFalse();
        assertThat(data.get("auditTotals").toString()).isEqualTo("{\"brokenLinks\":" + (AuditExcerpt.MAX_ROWS + 7)
                + ",\"titles\":{\"missing\":1,\"duplicates\":0}}");
        assertThat(data.get("audit").get("stats").toString()).isEqualTo("{\"n\":1}");
    }

    @Test
    void anAuditJsonThatIsNotJsonIsRefusedNamingItAndTheWayOut() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null));
        Files.writeString(dir.resolve("audit.json"), "{\"brokenLinks\": [oops");

        assertThatThrownBy(() -> CrawlReport.html(dir)).isInstanceOf(IOException.class)
                .hasMessageStartingWith(dir.resolve("audit.json") + " is not JSON (")
                .hasMessageEndingWith("run `crawler report` again to write it anew");
    }

    @Test
    void summaryAndProgressLinesAreTakenAsTheyAreAndACutLastLineIsLeftOut() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null));
        Files.writeString(dir.resolve("summary.json"), "{\"fetched\":1,\"sieve\":{\"expectedUrls\":1000}}\n");
        Files.writeString(dir.resolve("progress.jsonl"),
                "{\"fetched\":1,\"elapsed\":1}\n{\"fetched\":2,\"elapsed\":2}\n{\"fetched\":3,\"ela");

        JsonNode data = data(CrawlReport.html(dir));

        assertThat(data.get("summary").get("sieve").get("expectedUrls").asLong()).isEqualTo(1000);
        assertThat(data.get("progress").toString()).isEqualTo("[{\"fetched\":1,\"elapsed\":1},{\"fetched\":2,"
                + "\"elapsed\":2}]");
    }

    @Test
    void aSummaryOverItsBoundIsRefusedByItsSizeWithoutReadingIt() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null));
        Path summary = dir.resolve("summary.json");
        try (java.io.RandomAccessFile sparse = new java.io.RandomAccessFile(summary.toFile(), "rw")) {
            sparse.setLength(3L << 30);
        }

        assertThatThrownBy(() -> CrawlReport.html(dir)).isInstanceOf(IOException.class)
                .hasMessage(summary + ": larger than " + InputFile.SUMMARY.maxBytes() + " bytes, the most a crawl"
                        + " summary may have (3221225472 bytes)");
    }

    @Test
    void linesOfPagesJsonlThatAreNoRecordsAreLeftOutAndCounted() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null), page("http://a.test/b", 200, Outcome.FETCHED, 1,
                null));
        Path file = dir.resolve("pages.jsonl");
        byte[] whole = Files.readAllBytes(file);
        // a line damaged on disk, then the partial last line of a crawl killed while writing it
        Files.writeString(file, new String(whole, java.nio.charset.StandardCharsets.UTF_8) + "garbage\n"
                + "{\"url\":\"http://a.test/c\",\"sta");

        JsonNode data = data(CrawlReport.html(dir));

        assertThat(data.get("records").asLong()).isEqualTo(2);
        assertThat(data.get("unreadableLines").asLong()).isEqualTo(2);
        assertThat(JsonlSink.readSkipping(file, record -> { })).isEqualTo(new JsonlSink.Skipped(2, whole.length));
    }

    @Test
    void textFromTheCrawlCannotEndTheScriptThatHoldsIt() throws Exception {
        pages(page("http://a.test/", 0, Outcome.ERROR, 0, "</script><script>alert(1)</script>"));

        String html = CrawlReport.html(dir);

        assertThat(html).doesNotContain("</script><script>alert(1)");
        assertThat(data(html).get("errors").get(0).get(0).asText())
                .isEqualTo("error: </script><script>alert(1)</script>");
    }

    @ParameterizedTest
    @MethodSource("org.sievecrawler.fixtures.HostileText#scriptData")
    void theDataHoldsNoCharacterTheHtmlParserReadsWhateverTheCrawlsTextsAre(HostileText.ScriptData row)
            throws Exception {
        HostileCrawlFolder.write(dir, row.text());

        String html = Files.readString(CrawlReport.write(dir), StandardCharsets.UTF_8);

        String open = "<script id=\"report-data\" type=\"application/json\">";
        int start = html.indexOf(open) + open.length();
        String data = html.substring(start, html.indexOf("</script>", start));
        assertThat(data).doesNotContain("<", ">", "&", "\u2028", "\u2029");
        assertThat(html.substring(start + data.length())).startsWith("</script>\n<script>// Draws report.html");
        JsonNode json = data(html);
        String text = Json.wellFormed(row.text());
        String error = "error: " + text;
        assertThat(json.get("errors").get(0).get(0).asText()).isEqualTo(error.length() > PageTally.MAX_ERROR_CHARS
                ? error.substring(0, PageTally.MAX_ERROR_CHARS) + "…" : error);
        assertThat(json.get("summary").get("endReason").asText()).isEqualTo(text);
        assertThat(json.get("summary").get("unreachableHosts").get(0).get("reason").asText()).isEqualTo(text);
        assertThat(json.get("summary").get("linkRejections").get(text).asLong()).isEqualTo(1);
        assertThat(json.get("progress").size()).isEqualTo(2);
        JsonNode rule = json.get("rules").get("list").get(0);
        assertThat(rule.get("undoneWhy").asText()).isEqualTo(text);
        assertThat(rule.get("name").asText()).isEqualTo(text);
        assertThat(rule.get("traps").asLong()).as("the trap record naming it").isEqualTo(1);
        assertThat(json.get("summary").get("learned").get("list").get(0).get("rule").asText())
                .isEqualTo(rule.get("rule").asText());
    }

    @Test
    void theRulesLearnedComeFromRulesJsonlAndTheTrapsOfPagesJsonlSoARedrawHasThem() throws Exception {
        org.sievecrawler.learn.Rule calendar = new org.sievecrawler.learn.Rule(
                org.sievecrawler.learn.Rule.Kind.SKIP_TEMPLATE, "a.test", "/cal?d={date}", "", -1, 40, 40);
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null),
                page("http://a.test/cal?d=2026-01-01", 0, Outcome.TRAP, 1, "learned rule: " + calendar.describe()),
                page("http://a.test/cal?d=2026-01-02", 0, Outcome.TRAP, 1, "learned rule: " + calendar.describe()));
        try (org.sievecrawler.learn.RulesFile rules = new org.sievecrawler.learn.RulesFile(dir.resolve("rules.jsonl"),
                java.time.Clock.systemUTC())) {
            rules.learned(calendar);
        }

        JsonNode rules = data(CrawlReport.html(dir)).get("rules");

        assertThat(rules.get("total").asInt()).isEqualTo(1);
        assertThat(rules.get("list").get(0).get("rule").asText()).isEqualTo(calendar.describe());
        assertThat(rules.get("list").get(0).get("kind").asText()).isEqualTo("skip-template");
        assertThat(rules.get("list").get(0).get("traps").asLong()).isEqualTo(2);
    }

    @Test
    void filesWithBytesThatAreNotUtf8OrUnpairedSurrogatesAreReportedAsValidUtf8() throws Exception {
        HostileCrawlFolder.write(dir, "\ud800x");
        byte[] bad = "{\"url\":\"http://d.test/\",\"outcome\":\"error\",\"error\":\"\\uDC00 \u00ff\u00ed\u00a0\u0080\"}\n"
                .getBytes(StandardCharsets.ISO_8859_1);
        Files.write(dir.resolve("pages.jsonl"), bad, java.nio.file.StandardOpenOption.APPEND);
        Files.write(dir.resolve("progress.jsonl"), "{\"fetched\":4,\"note\":\"\u00ff\"}\n"
                .getBytes(StandardCharsets.ISO_8859_1), java.nio.file.StandardOpenOption.APPEND);

        byte[] report = Files.readAllBytes(CrawlReport.write(dir));

        StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(report));
        JsonNode json = data(new String(report, StandardCharsets.UTF_8));
        assertThat(json.get("records").asLong()).isEqualTo(5); // the folder's 4 and the line of bad bytes
        assertThat(json.get("unreadableLines").asLong()).isZero();
        assertThat(json.get("summary").get("endReason").asText()).isEqualTo("\ufffdx");
        assertThat(json.get("progress").size()).isEqualTo(3);
        assertThat(json.toString()).doesNotContain("\\uD8", "\\uDC", "\\ud8", "\\udc");
    }

    @Test
    void thePageNeedsNoNetwork() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null));

        String html = CrawlReport.html(dir);

        assertThat(html).contains("Chart.js v4.6.1").doesNotContain("<script src", "<link ", "cdn", "@import");
    }

    @Test
    void writeReplacesTheReportInTheFolder() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null));
        Files.writeString(dir.resolve("report.html"), "old");

        Path report = CrawlReport.write(dir);

        assertThat(report).isEqualTo(dir.resolve("report.html"));
        assertThat(Files.readString(report)).startsWith("<!DOCTYPE html>");
        assertThat(dir.resolve("report.html.tmp")).doesNotExist();
    }

    @Test
    void aFolderWithoutPagesJsonlIsRefusedByName() {
        assertThatThrownBy(() -> CrawlReport.write(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining(dir.toString()).hasMessageContaining("has no pages.jsonl");
    }

    @Test
    void aSummaryThatIsNotJsonIsRefusedByName() throws Exception {
        pages(page("http://a.test/", 200, Outcome.FETCHED, 0, null));
        Files.writeString(dir.resolve("summary.json"), "{\"fetched\":");

        assertThatThrownBy(() -> CrawlReport.html(dir)).isInstanceOf(IOException.class)
                .hasMessageContaining("summary.json is not a JSON object");
    }

    @Test
    void fillReplacesEachPlaceholderOnceAndDoesNotSearchTheValues() {
        assertThat(CrawlReport.fill("<{{a}}|{{b}}>", Map.of("a", "{{b}}", "b", "2"))).isEqualTo("<{{b}}|2>");
        assertThatThrownBy(() -> CrawlReport.fill("{{c}}", Map.of())).hasMessageContaining("no value for {{c}}");
    }
}
