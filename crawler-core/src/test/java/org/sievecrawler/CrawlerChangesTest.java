package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_LINKS;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.changes.ChangeSet;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.profile.CrawlProfile;
import org.sievecrawler.progress.CrawlSummary;
import org.sievecrawler.shell.Program;

/**
 * A recrawl ({@code crawl --since}) of a site that changed writes changes.jsonl, counts the changes in summary.json
 * and on its final line, and leads its report with them; with {@code output.links} in both crawls it names the page
 * no page links to any more. A crawl that is no recrawl writes none of it.
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

    private CrawlProfile profile(Path dir, boolean links) {
        return CrawlProfile.defaults().with(SEEDS, List.of(site.url("/"))).with(POLITENESS_DELAY, Duration.ZERO)
                .with(FETCH_THREADS, 2).with(OUTPUT_DIR, dir).with(OUTPUT_LINKS, links);
    }

    private Map<String, JsonNode> changes() throws Exception {
        Map<String, JsonNode> changes = new TreeMap<>();
        for (String line : Files.readAllLines(out.resolve(ChangeSet.FILE))) {
            JsonNode change = JSON.readTree(line);
            changes.put(change.get("url").asText(), change);
        }
        return changes;
    }

    /**
     * The earlier crawl: the home page links to /a and /b, /b to /gone. Then /a changes, the home page links to /a
     * and a new page /c instead of /b, and /gone is deleted.
     */
    private void crawlThenChangeTheSite(boolean links) throws Exception {
        site.page("/", FixtureSite.linkPage("home", "/a", "/b")).page("/a", FixtureSite.linkPage("a", "/"))
                .page("/b", FixtureSite.linkPage("b", "/", "/gone")).page("/gone", FixtureSite.linkPage("gone"));
        Crawler.newCrawl(profile(earlier, links)).run();
        site.page("/", FixtureSite.linkPage("home", "/a", "/c")).page("/a", FixtureSite.linkPage("a, changed", "/"))
                .page("/c", FixtureSite.linkPage("c", "/"))
                .respond("/gone", com.github.tomakehurst.wiremock.client.WireMock.aResponse().withStatus(404));
    }

    @Test
    void aRecrawlWritesWhatChangedCountsItAndReportsIt() throws Exception {
        crawlThenChangeTheSite(false);

        CrawlSummary summary = Crawler.of(profile(out, false), Optional.empty(), Optional.of(earlier),
                Crawler.Start.NEW, Program.CRAWLER).run();

        Map<String, String> change = new TreeMap<>();
        changes().forEach((url, line) -> change.put(url, line.get("change").asText()));
        assertThat(change).containsEntry(site.url("/"), "changed").containsEntry(site.url("/a"), "changed")
                .containsEntry(site.url("/b"), "unchanged").containsEntry(site.url("/c"), "new")
                .containsEntry(site.url("/gone"), "gone");
        assertThat(changes().get(site.url("/gone")).get("previousReferrer").asText()).isEqualTo(site.url("/b"));
        JsonNode counts = JSON.readTree(out.resolve("summary.json").toFile()).get("changes");
        String since = JSON.readTree(earlier.resolve("summary.json").toFile()).get("startedAt").asText();
        assertThat(counts.get("since").asText()).isEqualTo(since);
        assertThat(counts.get("new").asLong()).isEqualTo(1);
        assertThat(counts.get("gone").asLong()).isEqualTo(1);
        assertThat(counts.get("unlinked").isNull()).as("no link graphs: not measured").isTrue();
        assertThat(summary.line()).containsPattern("^crawl [a-z-]+: changes: 1 new, 2 changed, ").contains(", 1 gone; decided=");
        assertThat(Files.readString(out.resolve("report.html"))).contains("\"changes\":{\"unreadableLines\":0,");
    }

    @Test
    void withTheLinkGraphsOfBothCrawlsItNamesThePageNoPageLinksToAnyMore() throws Exception {
        crawlThenChangeTheSite(true);

        CrawlSummary summary = Crawler.of(profile(out, true), Optional.empty(), Optional.of(earlier),
                Crawler.Start.NEW, Program.CRAWLER).run();

        List<String> unlinked = new ArrayList<>();
        changes().forEach((url, line) -> {
            if (line.path("unlinked").asBoolean()) {
                unlinked.add(url);
            }
        });
        assertThat(unlinked).as("/gone is still linked from /b, which is no longer linked").containsExactly(
                site.url("/b"));
        assertThat(JSON.readTree(out.resolve("summary.json").toFile()).get("changes").get("unlinked").asLong())
                .isEqualTo(1);
        assertThat(summary.line()).contains(", 1 unlinked");
    }

    @Test
    void aCrawlThatIsNoRecrawlHasNoChanges() throws Exception {
        site.page("/", FixtureSite.linkPage("home"));

        CrawlSummary summary = Crawler.newCrawl(profile(out, true)).run();

        assertThat(out.resolve(ChangeSet.FILE)).doesNotExist();
        assertThat(JSON.readTree(out.resolve("summary.json").toFile()).has("changes")).isFalse();
        assertThat(summary.line()).doesNotContain("changes:");
    }
}
