package org.sievecrawler.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.SitemapBombs;
import org.sievecrawler.fixtures.TsvTable;

/**
 * Issue #24's sitemap bombs, as a user meets them: a crawl in a child JVM under {@code -Xmx256m} whose robots.txt
 * names the bombs of {@code /bounds/sitemap-bombs.tsv} as many times as its "at once" column says (eight in all),
 * each filling the default 50 MB {@code scope.max-sitemap-bytes}, taken by 10 fetcher threads at once. Before the
 * bound four of them ended the crawl with an OutOfMemoryError; now it ends normally and each sitemap's record is as
 * the table says. The sitemaps' pages are beyond {@code scope.max-depth} 0: counted, not fetched.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SitemapBombsProcessTest {
    private static final String TABLE = "/bounds/sitemap-bombs.tsv";
    private static final long LIMIT = 50L << 20; // scope.max-sitemap-bytes' default
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aCrawlUnderA256MbHeapReadsEightSitemapBombsAtOnceWithoutRunningOutOfMemory() throws Exception {
        List<TsvTable.Row> rows = TsvTable.rows(TABLE, 5).stream().filter(row -> !row.cell(1).isEmpty()).toList();
        List<String> named = new ArrayList<>(); // each bomb as many times as the table says, under its own URL
        Map<String, TsvTable.Row> rowOf = new HashMap<>();
        for (TsvTable.Row row : rows) {
            for (int copy = 1; copy <= Integer.parseInt(row.cell(1)); copy++) {
                named.add(row.cell(0) + "?copy=" + copy);
                rowOf.put(named.get(named.size() - 1), row);
            }
        }
        assertThat(named).hasSizeGreaterThanOrEqualTo(8);
        Path profile = Files.writeString(dir.resolve("bombs.yaml"), String.join("\n",
                "fetch:", "  threads: 10", "  allow-private-addresses: true",
                "politeness:", "  delay: 0s", "  max-connections-per-host: 10",
                "scope:", "  max-depth: 0", "")); // the sitemaps' pages (depth 1) are counted, not fetched
        try (SitemapBombs bombs = SitemapBombs.start(LIMIT, named)) {
            ChildCrawler crawler = new ChildCrawler(dir.resolve("child.log"), "-Xmx256m");
            Process crawl = crawler.start("crawl", bombs.origin() + "/", "--profile", profile.toString(), "--out",
                    dir.resolve("out").toString(), "-q");
            assertThat(crawl.waitFor(100, TimeUnit.SECONDS)).as("the crawl ends: %s", crawler.output()).isTrue();

            assertThat(crawl.exitValue()).as(crawler.output()).isZero();
            assertThat(crawler.output()).doesNotContain("OutOfMemoryError");
            Map<String, JsonNode> records = new HashMap<>();
            for (String line : Files.readAllLines(dir.resolve("out/pages.jsonl"))) {
                JsonNode record = JSON.readTree(line);
                records.put(record.get("url").asText(), record);
            }
            for (String sitemap : named) {
                TsvTable.Row row = rowOf.get(sitemap);
                String url = bombs.url(sitemap);
                JsonNode record = records.get(url);
                assertThat(record).as(row.where() + ": the record of " + url).isNotNull();
                assertThat(record.get("outcome").asText()).as(row.where()).isEqualTo(row.cell(2));
                assertThat(record.get("outlinks").asInt()).as(row.where()).isEqualTo(Integer.parseInt(row.cell(3)));
                String error = record.get("error").isNull() ? "" : record.get("error").asText();
                assertThat(error).as(row.where()).matches(pattern(row.cell(4), url));
            }
        }
    }

    /** The table's error text as a pattern: {url} and {limit} filled in, {n} any number. */
    private static Pattern pattern(String error, String url) {
        String filled = error.replace("{url}", url).replace("{limit}", Long.toString(LIMIT));
        return Pattern.compile(Pattern.quote(filled).replace("{n}", "\\E[0-9]+\\Q"));
    }
}
