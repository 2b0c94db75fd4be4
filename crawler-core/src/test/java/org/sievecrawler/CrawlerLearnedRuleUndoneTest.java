package org.sievecrawler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.sievecrawler.profile.ProfileKeys.FETCH_THREADS;
import static org.sievecrawler.profile.ProfileKeys.OUTPUT_DIR;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_DELAY;
import static org.sievecrawler.profile.ProfileKeys.POLITENESS_MAX_CONNECTIONS_PER_HOST;
import static org.sievecrawler.profile.ProfileKeys.SEEDS;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sievecrawler.fixtures.DuplicateTraps;
import org.sievecrawler.fixtures.FixtureSite;
import org.sievecrawler.learn.Learner;
import org.sievecrawler.profile.CrawlProfile;

/**
 * Issue 30, "never at the cost of real pages": a template whose first pages all look alike (placeholders) is learned
 * as a trap, and a sampled page of it with text of its own undoes the rule, after which the template's pages are
 * fetched again. What the rule refused before it was undone is recorded as a trap naming the rule.
 */
class CrawlerLearnedRuleUndoneTest {
    private static final int PLACEHOLDERS = 25;
    private static final int ITEMS = 80;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path out;
    private final FixtureSite site = FixtureSite.start();

    @AfterEach
    void stop() {
        site.close();
    }

    @Test
    void aSampleWithNewTextUndoesTheRuleAndTheRestOfTheTemplateIsFetched() throws Exception {
        List<String> hrefs = new ArrayList<>();
        Map<String, String> pages = new LinkedHashMap<>();
        for (int item = 1; item <= ITEMS; item++) {
            hrefs.add("/item/" + item);
            String text = item <= PLACEHOLDERS ? "This item is coming soon. " + DuplicateTraps.visibleText("/cal?date=2026-11-29").orElseThrow()
                    : DuplicateTraps.visibleText("/a/" + DuplicateTraps.ARTICLE_IDS.get(item)).orElseThrow();
            pages.put("/item/" + item, "<!doctype html><title>Item " + item + "</title><p>" + text + "</p>");
        }
        pages.put("/", FixtureSite.linkPage("Items", hrefs.toArray(String[]::new)));
        site.pages(pages);
        CrawlProfile profile = CrawlProfile.defaults().with(SEEDS, List.of(site.url("/")))
                .with(POLITENESS_DELAY, Duration.ZERO).with(POLITENESS_MAX_CONNECTIONS_PER_HOST, 1)
                .with(FETCH_THREADS, 1).with(OUTPUT_DIR, out);

        Crawler.newCrawl(profile).run();

        CrawlOutput crawl = CrawlOutput.read(out);
        List<JsonNode> rules = new ArrayList<>();
        for (String line : Files.readAllLines(out.resolve("rules.jsonl"))) {
            rules.add(JSON.readTree(line));
        }
        assertThat(rules).extracting(r -> r.get("event").asText() + " " + r.get("kind").asText() + " "
                + r.get("template").asText()).containsExactly("learned skip-template /item/{n}",
                        "undone skip-template /item/{n}");
        int undoneAt = Integer.parseInt(rules.get(1).get("url").asText().replaceAll(".*/item/", ""));
        assertThat(undoneAt).as("the sample that undid it has text of its own").isGreaterThan(PLACEHOLDERS);
        List<Integer> refused = new ArrayList<>();
        for (int item = 1; item <= ITEMS; item++) {
            JsonNode record = crawl.record(site.url("/item/" + item));
            if (record.get("outcome").asText().equals("trap")) {
                assertThat(record.get("error").asText()).startsWith("learned rule: /item/{n} yields only"
                        + " near-duplicates on host 127.0.0.1:" + site.port());
                refused.add(item);
            } else {
                assertThat(record.get("outcome").asText()).as("item " + item).isEqualTo("fetched");
            }
        }
        System.out.println("rule learned, undone at item " + undoneAt + "; refused before: " + refused);
        assertThat(refused).as("refused between the young samples (1st, 2nd, 4th, 8th, 16th)")
                .hasSizeLessThanOrEqualTo(Learner.FIRST_SAMPLES / 2).allMatch(item -> item < undoneAt);
    }
}
