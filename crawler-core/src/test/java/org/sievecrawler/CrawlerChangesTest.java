package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.changes.ChangeSet;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.history.CrawlHistory;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlSummary;

/**
 * A crawl whose folder holds an earlier crawl's history.tsv (as {@code crawl --since} builds it) writes
 * changes.jsonl and counts the changes in summary.json and on its final line; a crawl without one writes neither.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CrawlerChangesTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    @TempDir
    Path earlier;
    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stopSite() {
        site.close();
    }

    private CrawlProfile profile() {
        site.page("/", FixtureSite.linkPage("home", "/a", "/b")).page("/a", FixtureSite.linkPage("a", "/"))
                .page("/b", FixtureSite.linkPage("b", "/"));
        return CrawlProfile.defaults().with(SEEDS, List.of(site.url("/"))).with(POLITENESS_DELAY, Duration.ZERO)
                .with(FETCH_THREADS, 2).with(OUTPUT_DIR, out);
    }

    @Test
    void aRecrawlWritesItsChangesAndCountsThem() throws Exception {
        CrawlProfile profile = profile();
        String other = "sha1:" + "A".repeat(32);
        Files.writeString(earlier.resolve("pages.jsonl"), String.join("\n",
                "{\"url\":\"" + site.url("/") + "\",\"status\":200,\"outcome\":\"fetched\",\"depth\":0}",
                "{\"url\":\"" + site.url("/a") + "\",\"status\":200,\"outcome\":\"fetched\",\"depth\":1,\"referrer\":\""
                        + site.url("/") + "\",\"digest\":\"" + other + "\"}",
                "{\"url\":\"" + site.url("/gone") + "\",\"status\":200,\"outcome\":\"fetched\",\"depth\":1}", ""),
                StandardCharsets.UTF_8);
        Files.writeString(earlier.resolve("summary.json"), "{\"startedAt\": \"2026-11-28T20:00:00Z\"}");
        CrawlHistory.build(earlier, out, 1 << 20).close();

        CrawlSummary summary = Crawler.newCrawl(profile).run();

        Map<String, String> changes = new TreeMap<>();
        for (String line : Files.readAllLines(out.resolve(ChangeSet.FILE))) {
            JsonNode change = JSON.readTree(line);
            changes.put(change.get("url").asText(), change.get("change").asText());
        }
        assertThat(changes).containsExactlyInAnyOrderEntriesOf(Map.of(site.url("/"), "unchanged",
                site.url("/a"), "changed", site.url("/b"), "new", site.url("/gone"), "not-visited"));
        JsonNode counts = JSON.readTree(out.resolve("summary.json").toFile()).get("changes");
        assertThat(counts.get("since").isNull()).as("the earlier folder is --since's, not wired here").isTrue();
        assertThat(counts.get("new").asLong()).isEqualTo(1);
        assertThat(counts.get("changed").asLong()).isEqualTo(1);
        assertThat(counts.get("unchanged").asLong()).isEqualTo(1);
        assertThat(counts.get("notVisited").asLong()).isEqualTo(1);
        assertThat(counts.get("unlinked").isNull()).isTrue();
        assertThat(summary.line()).contains(" changes: 1 new, 1 changed, 1 unchanged, 1 not-visited");
    }

    @Test
    void aCrawlWithoutHistoryHasNoChanges() throws Exception {
        CrawlSummary summary = Crawler.newCrawl(profile()).run();

        assertThat(out.resolve(ChangeSet.FILE)).doesNotExist();
        assertThat(JSON.readTree(out.resolve("summary.json").toFile()).has("changes")).isFalse();
        assertThat(summary.line()).doesNotContain("changes:");
    }
}
